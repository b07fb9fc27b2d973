/**
 * Stands in for the MCP SDK's AjvJsonSchemaValidator inside the `mcp` bundle (cliBundles.js
 * points the SDK server's own import of it here): the very same validator, built on first use.
 * The server uses it only to check a client's answer to an elicitation, which this server never
 * asks for, so `claude-memory mcp` no longer runs and sets up AJV (about a quarter of its bundle)
 * before it answers its first request.
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

type AjvProvider = typeof import('@modelcontextprotocol/sdk/validation/ajv-provider.js');

export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  private real: jsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const real = (this.real ??= new (require('@modelcontextprotocol/sdk/validation/ajv-provider.js') as AjvProvider).AjvJsonSchemaValidator());
    return real.getValidator<T>(schema);
  }
}
