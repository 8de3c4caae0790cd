/** The byte progress display an op reports to: the front end gives one (a bar on a terminal). */

/** A byte progress display the front end provides (a bar on a terminal, nothing elsewhere). */
export interface Progress {
  update(done: number, total?: number): void;
  stop(): void;
}

/** Starts a progress display for `total` bytes labelled `label`. */
export type StartProgress = (label: string, total: number) => Promise<Progress>;

/** No display: what an op shows when the front end gives none. */
export const noProgress: StartProgress = () => Promise.resolve({ update() {}, stop() {} });
