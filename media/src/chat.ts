// Chat webview script (bundled by esbuild into media/dist/chat.js). Filled in by the chat view work.
export {};
