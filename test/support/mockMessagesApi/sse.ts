/** Turns one scripted assistant turn into the Messages API's SSE events (or its JSON message). */
export type ScriptBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id?: string; name?: string; input: unknown }
  /** A server-side compaction summary (compact_20260112), streamed as the API does: start, one compaction_delta, stop. */
  | { type: 'compaction'; content: string | null; encrypted_content?: string };

export interface ResolvedBlock {
  type: 'text' | 'tool_use' | 'compaction';
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  content?: string | null;
  encrypted_content?: string;
}

export interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Splits `text` into `parts` roughly equal pieces (at least one), so deltas arrive in several chunks. */
export function chunk(text: string, parts: number): string[] {
  if (text.length === 0) return [''];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function messageEvents(
  message: Record<string, unknown>,
  blocks: ResolvedBlock[],
  delta: Record<string, unknown>,
  chunks: number,
): StreamEvent[] {
  const usage = message.usage as Record<string, number>;
  const events: StreamEvent[] = [
    { event: 'message_start', data: { type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } } },
  ];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
      for (const piece of chunk(block.text ?? '', chunks)) {
        events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } } });
      }
    } else if (block.type === 'compaction') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'compaction', content: null, encrypted_content: null } } });
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'compaction_delta', content: block.content ?? null, encrypted_content: block.encrypted_content ?? null } },
      });
    } else {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } } });
      for (const piece of chunk(JSON.stringify(block.input ?? {}), chunks)) {
        events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } } });
      }
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({ event: 'message_delta', data: { type: 'message_delta', ...delta } });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export function encodeEvent(e: StreamEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}
