import * as assert from 'node:assert/strict';
import { buildChatHtml, chatContentSecurityPolicy, createNonce } from '../../../src/features/chat/chatHtml';

const CSP_SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';
const MEDIA = `${CSP_SOURCE}/ext/media`;
const resources = {
  cspSource: CSP_SOURCE,
  scriptUri: `${MEDIA}/dist/chat.js`,
  styleUri: `${MEDIA}/chat.css`,
  codiconsUri: `${MEDIA}/vendor/codicons/codicon.css`,
};

function cspOf(html: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(match, 'the page has a CSP meta tag');
  return match[1];
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('chat webview HTML', () => {
  it('denies everything by default and allows scripts only by nonce', () => {
    const html = buildChatHtml(resources, 'abc123');
    const csp = directives(cspOf(html));
    assert.deepEqual(csp.get('default-src'), ["'none'"]);
    assert.deepEqual(csp.get('script-src'), ["'nonce-abc123'"]);
    assert.deepEqual(csp.get('style-src'), [CSP_SOURCE]);
    assert.deepEqual(csp.get('font-src'), [CSP_SOURCE]);
    assert.deepEqual(csp.get('img-src'), [CSP_SOURCE, 'data:']);
    assert.ok(!/unsafe-(inline|eval)/.test(cspOf(html)));
  });

  it('puts the nonce on every script tag and has no inline script or style', () => {
    const html = buildChatHtml(resources, 'n0nce');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    for (const [, attributes, body] of scripts) {
      assert.match(attributes, /nonce="n0nce"/);
      assert.equal(body.trim(), '', 'no inline script body');
    }
    assert.ok(!/<style\b/.test(html), 'no <style> element');
    assert.ok(!/\sstyle=/.test(html), 'no style attribute');
    assert.ok(!/\son[a-z]+=/i.test(html), 'no inline event handler');
  });

  it('loads resources only from media/', () => {
    const html = buildChatHtml(resources);
    const urls = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(urls.sort(), [resources.codiconsUri, resources.scriptUri, resources.styleUri].sort());
    for (const url of urls) assert.ok(url.startsWith(`${MEDIA}/`), url);
  });

  it('uses a fresh random nonce for every render', () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 50; i++) nonces.add(/nonce="([^"]+)"/.exec(buildChatHtml(resources))![1]);
    assert.equal(nonces.size, 50);
    const nonce = createNonce();
    assert.ok(Buffer.from(nonce, 'base64').length >= 16, 'at least 128 bits');
  });

  it('accepts a cspSource that lists several sources', () => {
    const many = "'self' https://*.vscode-cdn.net";
    const csp = directives(cspOf(buildChatHtml({ ...resources, cspSource: many }, 'n')));
    assert.deepEqual(csp.get('style-src'), ["'self'", 'https://*.vscode-cdn.net']);
    assert.deepEqual(csp.get('script-src'), ["'nonce-n'"]);
  });

  it('builds the CSP from the source and nonce alone', () => {
    assert.equal(
      chatContentSecurityPolicy(CSP_SOURCE, 'N'),
      `default-src 'none'; script-src 'nonce-N'; style-src ${CSP_SOURCE}; font-src ${CSP_SOURCE}; img-src ${CSP_SOURCE} data:`,
    );
  });

  it('refuses resource values that would break out of an attribute', () => {
    assert.throws(() => buildChatHtml({ ...resources, scriptUri: 'x" onload="alert(1)' }), /unsafe scriptUri/);
    assert.throws(() => buildChatHtml({ ...resources, cspSource: "https://a; script-src 'unsafe-inline'" }), /unsafe cspSource/);
    assert.throws(() => buildChatHtml({ ...resources, cspSource: 'https://a"><script>' }), /unsafe cspSource/);
    assert.throws(() => buildChatHtml(resources, 'a"b'), /unsafe nonce/);
  });

  it('gives the conversation a live region and labels the input', () => {
    const html = buildChatHtml(resources);
    assert.match(html, /id="transcript"[^>]*role="log"[^>]*aria-live="polite"/);
    assert.match(html, /<label for="prompt"/);
    assert.match(html, /id="stop"[^>]*aria-label="Stop the answer"/);
  });
});
