// The shared tool (MCP server and VS Code Language Model tool): one definition, the confirmation plan.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMAND_NAMES } from '../../../src/core/memory';
import {
  plannedWrite, SHARED_TOOL_DESCRIPTION, SHARED_TOOL_INPUT_SCHEMA, SHARED_TOOL_NAME, SHARED_TOOL_REFERENCE_NAME,
} from '../../../src/core/memory/sharedTool';

const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
  contributes: { languageModelTools: Record<string, unknown>[]; mcpServerDefinitionProviders: { id: string }[] };
  engines: { vscode: string };
};

describe('shared memory tool definition', () => {
  it('package.json declares the Language Model tool exactly as the MCP server offers it', () => {
    const [tool] = pkg.contributes.languageModelTools;
    assert.equal(tool.name, SHARED_TOOL_NAME);
    assert.equal(tool.toolReferenceName, SHARED_TOOL_REFERENCE_NAME);
    assert.notEqual(tool.name, 'memory');
    assert.notEqual(tool.toolReferenceName, 'memory');
    assert.equal(tool.modelDescription, SHARED_TOOL_DESCRIPTION);
    assert.deepEqual(tool.inputSchema, JSON.parse(JSON.stringify(SHARED_TOOL_INPUT_SCHEMA)));
    assert.equal(tool.canBeReferencedInPrompt, true);
  });

  it('offers every engine command and its parameters', () => {
    assert.deepEqual([...SHARED_TOOL_INPUT_SCHEMA.properties.command.enum], [...COMMAND_NAMES]);
    for (const param of ['path', 'view_range', 'file_text', 'old_str', 'new_str', 'insert_line', 'insert_text', 'old_path', 'new_path']) {
      assert.ok(param in SHARED_TOOL_INPUT_SCHEMA.properties, param);
    }
  });

  it('needs VS Code 1.101 for the stable MCP server definition API', () => {
    assert.equal(pkg.engines.vscode, '^1.101.0');
    assert.equal(pkg.contributes.mcpServerDefinitionProviders[0].id, 'claudeMemory.workspaceMemoryServers');
  });
});

describe('plannedWrite (what a confirmation names)', () => {
  it('is undefined for views only', () => {
    assert.equal(plannedWrite({ command: 'view', path: '/memories' }), undefined);
  });

  it('names the canonical file a write changes, and both ends of a rename', () => {
    assert.deepEqual(plannedWrite({ command: 'create', path: '/memories//notes/./a.md', file_text: 'x' }), { command: 'create', paths: ['/memories/notes/a.md'] });
    assert.deepEqual(plannedWrite({ command: 'str_replace', path: '/memories/a.md', old_str: 'x' }), { command: 'str_replace', paths: ['/memories/a.md'] });
    assert.deepEqual(plannedWrite({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' }), { command: 'rename', paths: ['/memories/a.md', '/memories/b.md'] });
  });

  it('treats anything unrecognisable as a write to confirm, showing what was given', () => {
    assert.deepEqual(plannedWrite({ command: 'launch', path: '/memories/../x' }), { command: 'launch', paths: ['/memories/../x'] });
    assert.deepEqual(plannedWrite(undefined), { command: '(no command)', paths: ['(no path given)'] });
    assert.equal(plannedWrite({ command: 'delete', path: `/memories/${'a'.repeat(500)}` })!.paths[0].length, 121);
  });
});
