//! Render failures show the error fallback page; uncaught errors and rejections are logged and passed to
//! window.tracker.track when a tracking script is present.
import { Component } from "react";
import type { ErrorInfo, ReactNode } from "react";
import { queryClient } from "../hooks/queryClient";
import { ErrorPage } from "../pages/ErrorPage";

declare global {
  interface Window {
    tracker?: { track?: (name: string, props?: Record<string, unknown>) => void };
  }
}

export function reportError(error: unknown, source: string): void {
  console.error(`[${source}]`, error);
  try {
    const message = error instanceof Error ? error.message : String(error);
    window.tracker?.track?.("dashboard_error", { source, message: message.slice(0, 200) });
  } catch {
    /* the hook must never break the app */
  }
}

export function installGlobalErrorHandlers(): void {
  window.addEventListener("error", (e) => reportError(e.error ?? e.message, "error"));
  window.addEventListener("unhandledrejection", (e) => reportError(e.reason, "unhandledrejection"));
}

export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state = { error: null as unknown };

  /** Drops cached reads (the failure may come from them) and renders the app again. */
  retry = () => {
    void queryClient.resetQueries();
    this.setState({ error: null });
  };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    reportError(error, "render");
    if (info.componentStack) console.error(info.componentStack);
  }

  render() {
    if (this.state.error) return <ErrorPage onRetry={this.retry} />;
    return this.props.children;
  }
}
