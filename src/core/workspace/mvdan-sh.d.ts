/**
 * The slice of mvdan-sh (mvdan/sh's bash parser, transpiled to JS) that shellCommands.ts uses.
 * The package ships no types; node shapes follow mvdan.cc/sh/v3/syntax.
 */
declare module 'mvdan-sh' {
  export interface ShPos {
    Offset(): number;
  }
  export interface ShNode {
    Pos(): ShPos;
    End(): ShPos;
    [field: string]: unknown;
  }
  export interface ShParser {
    Parse(source: string, name: string): ShNode;
  }
  export const syntax: {
    NewParser(): ShParser;
    Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
    NodeType(node: ShNode): string;
  };
}
