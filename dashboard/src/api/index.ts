//! The app-wide API client instance (browser fetch and localStorage).
import { createApiClient } from "./client";

export const api = createApiClient();
export { ApiError } from "./client";
export type * from "./types";
