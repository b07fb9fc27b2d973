/**
 * The conversation's list, virtualised by pages (issue 24). Rows live in pages of ROWS_PER_PAGE;
 * a page far out of view gives up its rows' DOM: it becomes a placeholder of the height it had
 * when drawn (so nothing under the reader moves) holding only the plain text of its rows, and it
 * is drawn again from the in-memory transcript (chat.ts) when it comes near the viewport.
 *
 * Kept drawn whatever their distance: the last page (new rows go there), a page with a row the
 * owner pins (a card waiting for an answer, the streaming answer, a running command), the page
 * with the focus and the pages holding the ends of a text selection. What a row's drawing does
 * not hold (expanded cards, "Show all") lives in the owner's model, so a redrawn row is the same.
 *
 * Decisions where the DOM is gone:
 * - Find in page (the browser's, window.find) still reaches every row: a placeholder holds its
 *   rows' text ("You: …", "Claude: …", a card's command, path and output) in one text node; a
 *   match scrolls there and the page is drawn.
 * - Screen readers read the placeholders' text in order, so the log stays one sequence; a page
 *   (re)drawn or turned into a placeholder is `aria-live="off"`, so redrawing old rows is not
 *   announced again as new messages in the polite log. The last page, where new rows arrive,
 *   stays live.
 * - Keyboard: Tab moves through the controls of drawn pages; pages are drawn a viewport ahead in
 *   both directions, so tabbing on scrolls into rows drawn before the focus gets there, and the
 *   page with the focus is never given up.
 */
import { element } from './dom';

export const ROWS_PER_PAGE = 16;

/** What the list asks of the transcript's owner: rows by id. */
export interface RowSource {
  /** A fresh element for the row (the owner keeps it until `forget`). */
  draw(id: string): HTMLElement;
  /** The row's element left the document. */
  forget(id: string): void;
  /** The row's plain text, for its page's placeholder. */
  text(id: string): string;
  /** A guess of the row's height in px, for a page never drawn yet. */
  estimate(id: string): number;
  /** The row must stay drawn (a waiting card, the streaming answer). */
  pinned(id: string): boolean;
}

interface Page {
  el: HTMLElement;
  ids: string[];
  drawn: boolean;
  /** Height last measured while drawn; undefined while only estimated. */
  height?: number;
}

/** Pages within this distance of the viewport (a share of its height) are drawn... */
const NEAR_MARGIN = '100% 0px';
/** ...and pages beyond this one are given up (between the two a page stays as it is). */
const FAR_MARGIN = '300% 0px';

export class PagedList {
  private pages: Page[] = [];
  private readonly pageOfRow = new Map<string, Page>();
  private readonly pageOfEl = new WeakMap<Element, Page>();
  /** Pages beyond the far margin (as last reported). */
  private readonly far = new Set<Page>();
  private readonly nearObserver: IntersectionObserver;
  private readonly farObserver: IntersectionObserver;
  private reconcileQueued = false;
  /** Counters for the chat benchmark and tests (window.chatListStats). */
  readonly stats = { drawnPages: 0, evictedPages: 0 };

  constructor(
    private readonly scroller: HTMLElement,
    /** Pages go before this element (the key prompt, the working line stay after them). */
    private readonly before: Element,
    private readonly rows: RowSource,
    /** Called after pages were drawn (heights changed: the owner may follow the end). */
    private readonly onDrawn: () => void,
  ) {
    this.nearObserver = new IntersectionObserver((changes) => this.onNear(changes), { root: scroller, rootMargin: NEAR_MARGIN });
    this.farObserver = new IntersectionObserver((changes) => this.onFar(changes), { root: scroller, rootMargin: FAR_MARGIN });
    // The focus or a selection leaving a far page frees it.
    document.addEventListener('focusin', () => this.reconcileSoon());
    document.addEventListener('selectionchange', () => this.reconcileSoon());
  }

  /** Whether a row's element is in the document. */
  isDrawn(id: string): boolean {
    return this.pageOfRow.get(id)?.drawn === true;
  }

  /** Number of rows in the list, drawn or not. */
  get rowCount(): number {
    return this.pageOfRow.size;
  }

  /**
   * Replaces the whole list (a snapshot). Only the pages that fill the view (from the page of
   * row `anchor`, else the end), the last page and pinned pages are drawn now; the others are
   * placeholders of their estimated height, drawn when they come near the viewport.
   */
  reset(ids: readonly string[], anchor: string | undefined): void {
    for (const page of this.pages) this.dropPage(page);
    this.pages = [];
    this.pageOfRow.clear();
    this.far.clear();
    const fragment = document.createDocumentFragment();
    for (let i = 0; i < ids.length; i += ROWS_PER_PAGE) {
      const page = this.newPage(ids.slice(i, i + ROWS_PER_PAGE));
      this.pages.push(page);
      fragment.append(page.el);
    }
    const last = this.pages[this.pages.length - 1];
    // What fills the view: from the row the reader was at, else up from the end.
    const height = this.scroller.clientHeight || 800;
    const from = anchor !== undefined ? this.pageOfRow.get(anchor) : undefined;
    const visible = from ? this.rowsAround(this.pages.indexOf(from), height, 1) : this.rowsAround(this.pages.length - 1, height, -1);
    for (const page of this.pages) {
      if (page === last || page.ids.some((id) => visible.has(id) || this.rows.pinned(id))) this.drawPage(page, page !== last);
      else this.placehold(page, this.estimateOf(page));
    }
    // One insertion for the whole conversation: one style and layout pass.
    this.scroller.insertBefore(fragment, this.before);
    for (const page of this.pages) this.observe(page);
  }

  /** Adds a row at the end: in the last page, or a new one when it is full. */
  append(id: string): void {
    let last = this.pages[this.pages.length - 1];
    if (!last || last.ids.length >= ROWS_PER_PAGE) {
      last = this.newPage([]);
      this.drawPage(last, false);
      this.pages.push(last);
      this.scroller.insertBefore(last.el, this.before);
      this.observe(last);
    }
    last.ids.push(id);
    this.pageOfRow.set(id, last);
    if (!last.drawn) this.drawPage(last, false);
    else last.el.append(this.rows.draw(id));
  }

  /** Takes a row out; an emptied page goes with it. */
  remove(id: string): void {
    const page = this.pageOfRow.get(id);
    if (!page) return;
    this.pageOfRow.delete(id);
    page.ids = page.ids.filter((other) => other !== id);
    this.rows.forget(id);
    if (page.ids.length === 0) {
      this.dropPage(page);
      page.el.remove();
      this.pages = this.pages.filter((p) => p !== page);
      // The page before may be the last one now: new rows are announced there.
      this.pages[this.pages.length - 1]?.el.removeAttribute('aria-live');
    } else if (page.drawn) {
      page.el.querySelector(`:scope > [data-id="${CSS.escape(id)}"]`)?.remove();
    } else {
      this.placehold(page, page.height ?? this.estimateOf(page));
    }
  }

  /** A row changed while its page is a placeholder: its text there follows. */
  changed(id: string): void {
    const page = this.pageOfRow.get(id);
    if (!page || page.drawn) return;
    if (this.rows.pinned(id)) {
      this.drawPage(page, true);
      this.onDrawn();
    } else this.placehold(page, page.height ?? this.estimateOf(page));
  }

  /** Gives up far pages that nothing holds any more (a card was answered, an answer ended). */
  reconcileSoon(): void {
    if (this.reconcileQueued || this.far.size === 0) return;
    this.reconcileQueued = true;
    requestAnimationFrame(() => {
      this.reconcileQueued = false;
      this.reconcile();
    });
  }

  private reconcile(): void {
    for (const page of this.far) if (page.drawn && !this.held(page)) this.evict(page);
  }

  private newPage(ids: string[]): Page {
    const page: Page = { el: element('div', 'page'), ids, drawn: false };
    for (const id of ids) this.pageOfRow.set(id, page);
    this.pageOfEl.set(page.el, page);
    return page;
  }

  private observe(page: Page): void {
    this.nearObserver.observe(page.el);
    this.farObserver.observe(page.el);
  }

  private dropPage(page: Page): void {
    this.nearObserver.unobserve(page.el);
    this.farObserver.unobserve(page.el);
    this.far.delete(page);
    for (const id of page.ids) {
      if (page.drawn) this.rows.forget(id);
      if (this.pageOfRow.get(id) === page) this.pageOfRow.delete(id);
    }
    page.el.remove();
  }

  private onNear(changes: IntersectionObserverEntry[]): void {
    let drew = false;
    for (const change of changes) {
      const page = this.pageOfEl.get(change.target);
      if (!page || !change.isIntersecting || page.drawn) continue;
      this.drawPage(page, true);
      drew = true;
    }
    if (drew) this.onDrawn();
  }

  private onFar(changes: IntersectionObserverEntry[]): void {
    for (const change of changes) {
      const page = this.pageOfEl.get(change.target);
      if (!page) continue;
      if (change.isIntersecting) this.far.delete(page);
      else this.far.add(page);
    }
    // A page hidden with the view (no size) is not far from anything: keep what is drawn.
    if (this.scroller.clientHeight > 0) this.reconcile();
  }

  /** Whether a page must stay drawn. */
  private held(page: Page): boolean {
    if (page === this.pages[this.pages.length - 1]) return true;
    const active = document.activeElement;
    if (active && active !== document.body && page.el.contains(active)) return true;
    const selection = document.getSelection();
    if (selection && !selection.isCollapsed && ((selection.anchorNode && page.el.contains(selection.anchorNode)) || (selection.focusNode && page.el.contains(selection.focusNode)))) return true;
    return page.ids.some((id) => this.rows.pinned(id));
  }

  /** Draws a page's rows from the model. `quiet`: old rows, not announced again in the live log. */
  private drawPage(page: Page, quiet: boolean): void {
    if (quiet) page.el.setAttribute('aria-live', 'off');
    page.el.replaceChildren(...page.ids.map((id) => this.rows.draw(id)));
    page.el.classList.remove('far');
    page.el.style.height = '';
    // Until it is laid out (content-visibility skips it off screen) it keeps the size it had.
    page.el.style.containIntrinsicSize = `auto ${Math.round(page.height ?? this.estimateOf(page))}px`;
    page.drawn = true;
    this.stats.drawnPages += 1;
  }

  /** Gives up a page's rows; it keeps its height and its text. */
  private evict(page: Page): void {
    const height = page.el.getBoundingClientRect().height;
    page.el.setAttribute('aria-live', 'off');
    for (const id of page.ids) this.rows.forget(id);
    page.drawn = false;
    page.height = height;
    this.placehold(page, height);
    this.stats.evictedPages += 1;
  }

  private placehold(page: Page, height: number): void {
    page.el.classList.add('far');
    page.el.style.height = `${height}px`;
    page.el.style.containIntrinsicSize = '';
    page.el.dataset.rows = String(page.ids.length);
    page.el.replaceChildren(document.createTextNode(page.ids.map((id) => this.rows.text(id)).join('\n\n')));
    page.drawn = false;
  }

  private estimateOf(page: Page): number {
    // The rows' guesses plus the gaps between them (--gap: 10px).
    return page.ids.reduce((sum, id) => sum + this.rows.estimate(id) + 10, 0);
  }

  /** The rows of the pages that fill `height` px from page `index` on, in direction `step`. */
  private rowsAround(index: number, height: number, step: 1 | -1): Set<string> {
    const ids = new Set<string>();
    let filled = 0;
    for (let i = index; i >= 0 && i < this.pages.length && filled < height; i += step) {
      const page = this.pages[i];
      for (const id of page.ids) ids.add(id);
      filled += page.height ?? this.estimateOf(page);
    }
    return ids;
  }
}
