/** The handler map, typed over the command union: adding a command without a handler fails to compile. */
import type { CommandHandlers } from '../context';
import { create } from './create';
import { deletePath } from './delete';
import { insert } from './insert';
import { rename } from './rename';
import { strReplace } from './strReplace';
import { view } from './view';

export const COMMAND_HANDLERS: CommandHandlers = {
  view,
  create,
  str_replace: strReplace,
  insert,
  delete: deletePath,
  rename,
};
