/**
 * A first feature checklist derived from the project goal, for when the user does not ask Claude
 * to draft one ("Initialize only", no API call): every list item of the goal becomes a feature; a
 * goal without a list is split into what it enumerates ("A todo app: add, list, complete and
 * delete todos, stored in a JSON file" → Add todos, List todos, Complete todos, Delete todos,
 * Stored in a JSON file), else into its sentences; one short clause stays one feature. The agent
 * may later append more (the guard forbids rewording these).
 */
import type { Feature } from './features';
import { clipText } from './templates';

const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+?)\s*$/;
const MAX_DESCRIPTION = 300;
/** Most features a goal without a list is split into (Claude's draft can make a longer list). */
const MAX_FEATURES = 12;

export function featuresFromGoal(goal: string): Feature[] {
  const lines = goal.split(/\r?\n/);
  const items = lines.map((l) => LIST_ITEM.exec(l)?.[1]).filter((s): s is string => !!s);
  const descriptions = (items.length > 0 ? items : clausesOf(goal)).slice(0, MAX_FEATURES);
  return descriptions
    .map((text) => clipText(text, MAX_DESCRIPTION))
    .map((description, i) => ({
      id: `F${String(i + 1).padStart(3, '0')}`,
      category: 'functional',
      description,
      steps: [
        'Start the project as /memories/startup.md describes',
        `Use it as a user would to check: ${description}`,
        'Confirm the result, then run the project tests',
      ],
      passes: false,
    }));
}

/**
 * The features a goal without a list names: the parts of an enumeration after its colon (bare
 * verbs before a verb with an object share that object: "add, list and delete todos"), else its
 * sentences; a goal of one clause is one feature.
 */
function clausesOf(goal: string): string[] {
  const flat = goal.replace(/\s+/g, ' ').trim();
  if (flat === '') return [];
  const colon = flat.indexOf(': ');
  if (colon > 0) {
    const parts = flat
      .slice(colon + 2)
      .replace(/[.!?]+$/, '')
      .split(/\s*[,;]\s*|\s+(?:and|or|as well as)\s+/)
      .map((p) => p.trim())
      .filter((p) => p !== '');
    if (parts.length > 1) return shareObjects(parts).map(capitalized);
  }
  const sentences = flat.split(/(?<=[.!?])\s+/).filter((s) => s !== '');
  return sentences.length > 1 ? sentences : [flat];
}

/** "add", "list", "delete todos" → "add todos", "list todos", "delete todos". */
function shareObjects(parts: readonly string[]): string[] {
  const out = [...parts];
  for (let i = 0; i < out.length; i++) {
    if (out[i].includes(' ')) continue;
    // The next part of two or more words is the verb with the object the bare ones share.
    const next = out.slice(i + 1).find((p) => p.includes(' '));
    const object = next?.slice(next.indexOf(' ') + 1);
    if (object !== undefined) out[i] = `${out[i]} ${object}`;
  }
  return out;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
