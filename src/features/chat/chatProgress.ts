/** The chat view's progress indicator: on while Claude works, off while it waits for the user or is done. */
import type { ChatEnvironment } from './chatPort';

export class ChatProgress {
  /** Ends the chat view's progress indicator; set while it shows. */
  private endProgress: (() => void) | undefined;

  constructor(private readonly env: Pick<ChatEnvironment, 'startProgress'>) {}

  get showing(): boolean {
    return this.endProgress !== undefined;
  }

  show(on: boolean): void {
    if (on && !this.endProgress) {
      this.endProgress = this.env.startProgress();
    } else if (!on && this.endProgress) {
      this.endProgress();
      this.endProgress = undefined;
    }
  }
}
