/** Uploads that report how far they got (XMLHttpRequest: fetch has no upload progress). */

/** How far an upload is: bytes sent, bytes in all, and the percent (null while the size is unknown). */
export interface UploadProgress {
  loaded: number;
  total: number;
  percent: number | null;
}

/** Whole percent of `loaded` out of `total`, 0..100; null when the total is unknown. */
export function progressPercent(loaded: number, total: number): number | null {
  if (!Number.isFinite(total) || total <= 0 || !Number.isFinite(loaded)) return null;
  return Math.min(100, Math.max(0, Math.floor((loaded / total) * 100)));
}

/** The progress of `loaded` out of `total` bytes. */
export const uploadProgress = (loaded: number, total: number): UploadProgress => ({ loaded, total, percent: progressPercent(loaded, total) });

/** POST `body` to `url` with `headers`; `onProgress` follows the upload. Resolves with the status and the JSON body (null when not JSON). */
export function postWithProgress(
  url: string,
  body: FormData,
  headers: Record<string, string>,
  onProgress?: (progress: UploadProgress) => void,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) {
      xhr.upload.addEventListener("progress", (event) => onProgress(uploadProgress(event.loaded, event.lengthComputable ? event.total : 0)));
      xhr.upload.addEventListener("load", () => onProgress(uploadProgress(1, 1)));
    }
    xhr.addEventListener("load", () => {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        parsed = null;
      }
      resolve({ status: xhr.status, body: parsed });
    });
    xhr.addEventListener("error", () => reject(new Error("The upload failed: the server could not be reached.")));
    xhr.addEventListener("abort", () => reject(new Error("The upload was cancelled.")));
    xhr.send(body);
  });
}
