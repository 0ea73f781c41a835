//! The Import card's upload (POST /api/websites/{id}/imports): the file as the raw body through
//! XMLHttpRequest, the one browser API that reports upload progress (fetch does not). Same bearer and single
//! token refresh as the client; failures are the client's ApiError("STATUS: body").
import { api } from ".";
import { ApiError } from "./client";
import type { ImportReport, ImportSource } from "./types";

/** Bytes sent so far of the file's total. */
export type UploadProgress = (sent: number, total: number) => void;

interface Answer {
  status: number;
  statusText: string;
  body: string;
  tokenRejected: boolean;
}

function send(path: string, file: File, onProgress: UploadProgress): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    const token = api.accessToken();
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () =>
      resolve({
        status: xhr.status,
        statusText: xhr.statusText,
        body: xhr.responseText,
        tokenRejected: xhr.status === 401 && /error="?invalid_token/.test(xhr.getResponseHeader("WWW-Authenticate") ?? ""),
      });
    xhr.onerror = () => reject(new Error("The upload failed: the connection to the server was lost"));
    xhr.send(file);
  });
}

/** Uploads `file` as an export of `source` into site `siteId`; resolves with the import's report. */
export async function uploadImport(siteId: number, source: ImportSource, file: File, onProgress: UploadProgress): Promise<ImportReport> {
  const path = `/api/websites/${siteId}/imports?from=${source}&name=${encodeURIComponent(file.name)}`;
  let answer = await send(path, file, onProgress);
  if (answer.tokenRejected && (await api.refresh())) answer = await send(path, file, onProgress);
  if (answer.status < 200 || answer.status >= 300) throw new ApiError(answer.status, answer.statusText, answer.body);
  return JSON.parse(answer.body) as ImportReport;
}
