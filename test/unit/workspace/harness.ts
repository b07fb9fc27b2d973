/** A temp workspace folder with a text editor tool over the real Node adapter. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentToolResult, ApprovalAnswer, ApprovalDecision, ApprovalRequest, ToolApprover } from '../../../src/core/agent/tools';
import { TextEditorTool, type EditorDocuments, type EditWritePolicy } from '../../../src/core/workspace';
import type { ProtectedWritePolicy } from '../../../src/core/workspace/editor';
import { NodeMemoryFileSystem } from '../../../src/platform/node/nodeFileSystem';

export interface EditorBed {
  root: string;
  tool: TextEditorTool;
  asked: ApprovalRequest[];
  run(input: unknown): Promise<AgentToolResult>;
  write(rel: string, text: string): void;
  read(rel: string): string;
  cleanup(): void;
}

export interface EditorBedOptions {
  policy?: EditWritePolicy;
  decision?: ApprovalDecision | ApprovalAnswer;
  documents?: EditorDocuments;
  excludes?: string[];
  maxCharacters?: number;
  protectedWrites?: ProtectedWritePolicy;
}

export function editorBed(options: EditorBedOptions = {}): EditorBed {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-editor-')));
  const asked: ApprovalRequest[] = [];
  const approver: ToolApprover = {
    ask: async (request) => {
      asked.push(request);
      return options.decision ?? 'once';
    },
  };
  const tool = new TextEditorTool({
    fs: new NodeMemoryFileSystem(root, { ownerOnly: false }),
    folder: { name: path.basename(root), root, memoryFolder: '.claude-memories' },
    writePolicy: () => options.policy ?? { mode: 'apply' },
    approver,
    documents: options.documents,
    excludes: () => options.excludes ?? [],
    maxCharacters: options.maxCharacters,
    protectedWrites: options.protectedWrites ? () => options.protectedWrites! : undefined,
  });
  let calls = 0;
  return {
    root,
    tool,
    asked,
    run: (input) => tool.execute(input, { toolUseId: `toolu_${++calls}`, onOutput: () => undefined }),
    write: (rel, text) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    },
    read: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
