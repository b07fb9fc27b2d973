/** The webview side of the VS Code API, typed with our protocol and saved state. */
import type { WebviewToExtension } from '../../src/features/chat/shared/protocol';

/**
 * What survives the webview being destroyed while the view is hidden (VS Code keeps it for us):
 * only what the extension cannot send back. The conversation itself is the extension's.
 */
export interface SavedState {
  draft?: string;
  /** Ids of expanded cards and prompt chips. */
  expanded?: string[];
  /** The row at the top of the transcript (rows far from it are not drawn: a pixel offset alone would not do), and whether it followed the end. */
  anchor?: ScrollAnchor;
  follow?: boolean;
}

/** A row and the distance of its top from the top of the view, in px. */
export interface ScrollAnchor {
  id: string;
  offset: number;
}

export interface ChatVsCodeApi {
  postMessage(message: WebviewToExtension): void;
  getState(): SavedState | undefined;
  setState(state: SavedState): void;
}

declare function acquireVsCodeApi(): ChatVsCodeApi;

/** May be called once per page load. */
export function vscodeApi(): ChatVsCodeApi {
  return acquireVsCodeApi();
}
