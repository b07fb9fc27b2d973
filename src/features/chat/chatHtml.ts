/**
 * The chat webview's HTML: a static shell with a strict CSP. Pure (no `vscode`) so it is tested in
 * plain Node. Everything dynamic is rendered by media/dist/chat.js inside the webview.
 */
import { randomBytes } from 'node:crypto';

export interface ChatHtmlResources {
  /** `webview.cspSource`: the origin webview resources are served from. */
  cspSource: string;
  /** `asWebviewUri` of media/dist/chat.js. */
  scriptUri: string;
  /** `asWebviewUri` of media/chat.css. */
  styleUri: string;
  /** `asWebviewUri` of media/vendor/codicons/codicon.css. */
  codiconsUri: string;
}

/** 128 random bits, base64: a script nonce an attacker cannot guess. A new one for every render. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function chatContentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

// The values go into attributes; they come from VS Code, but a quote or angle bracket in one would
// break out of the attribute, so refuse them instead of trying to escape.
function attributeSafe(name: string, value: string): string {
  if (/["'<>\s`]/.test(value)) throw new Error(`chat HTML: unsafe ${name}`);
  return value;
}

// `webview.cspSource` may list several sources ("'self' https://*.vscode-cdn.net"): spaces and
// single quotes are fine there, but a `;` would add a directive and `"`/`<` would leave the attribute.
function cspSourceSafe(value: string): string {
  if (value.trim() === '' || /["<>;,`\r\n]/.test(value)) throw new Error('chat HTML: unsafe cspSource');
  return value;
}

export function buildChatHtml(resources: ChatHtmlResources, nonce: string = createNonce()): string {
  const csp = chatContentSecurityPolicy(cspSourceSafe(resources.cspSource), attributeSafe('nonce', nonce));
  const script = attributeSafe('scriptUri', resources.scriptUri);
  const style = attributeSafe('styleUri', resources.styleUri);
  const codicons = attributeSafe('codiconsUri', resources.codiconsUri);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${codicons}" rel="stylesheet">
<link href="${style}" rel="stylesheet">
<title>Claude Memory Chat</title>
</head>
<body>
<div id="banner" class="banner" role="status" hidden><p id="banner-text"></p><button type="button" id="banner-action" class="button" hidden></button></div>
<div class="transcript-wrap">
<main id="transcript" class="transcript" role="log" aria-live="polite" aria-relevant="additions text" aria-label="Conversation with Claude" tabindex="0">
<div id="empty" class="empty">
<p>Ask Claude something. It reads and writes its memory in <code>.claude-memories/</code> of this workspace, and every memory operation shows up here.</p>
<div id="starter" class="starter" hidden></div>
<p id="previous" hidden>Earlier chats are in Chat History. <button type="button" id="reopen" class="link"><span class="codicon codicon-history" aria-hidden="true"></span> Reopen the last one</button></p>
</div>
<div id="key-prompt" class="key-prompt" role="region" aria-label="API key needed" hidden></div>
<div id="working" class="working" role="status" hidden><span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true"></span><span id="working-text"></span></div>
</main>
<button type="button" id="jump" class="button jump" hidden><span class="codicon codicon-arrow-down" aria-hidden="true"></span> Jump to latest</button>
</div>
<footer class="composer">
<form id="composer-form" class="composer-form">
<div id="attachments" class="chips composer-chips" aria-label="Sent with your next message" hidden></div>
<label for="prompt" class="visually-hidden">Message Claude</label>
<textarea id="prompt" rows="3" placeholder="Ask Claude… (Enter to send, Shift+Enter for a new line)" aria-describedby="composer-hint"></textarea>
<div class="composer-bar">
<span id="composer-hint" class="visually-hidden">Enter sends, Shift+Enter adds a new line, Escape stops the answer.</span>
<button type="button" id="key-state" class="link key-state" hidden></button>
<span class="spacer"></span>
<button type="button" id="stop" class="button secondary" aria-label="Stop the answer" hidden><span class="codicon codicon-debug-stop" aria-hidden="true"></span> Stop</button>
<button type="submit" id="send" class="button" aria-label="Send"><span class="codicon codicon-send" aria-hidden="true"></span> Send</button>
</div>
</form>
</footer>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
