/**
 * The sandbox's event bus: a service that changes something the platform announces (a version
 * added, a translation finished, a work item completed) publishes it here; the webhooks service
 * subscribes and delivers it to the callbacks registered for it. Publishing never waits for
 * delivery, as on the platform.
 */

/** One platform event, as a service publishes it. */
export interface SandboxEvent {
  /** The webhook system, e.g. `data`, `derivative`, `autodesk.da`. */
  system: string;
  /** The event kind, e.g. `dm.version.added`, `extraction.finished`, `workitem.completed`. */
  event: string;
  /** The app (client id) whose resources changed; hooks of that app receive it. */
  clientId?: string;
  /** The scope values a hook may filter on, e.g. `{ folder: "urn:adsk.wipprod:fs.folder:..." }`. */
  scope: Record<string, string>;
  /** The event's payload as the platform sends it. */
  payload: Record<string, unknown>;
}

/** A subscriber; called synchronously, so it must hand slow work off itself. */
export type EventListener = (event: SandboxEvent) => void;

/** The bus of one sandbox. */
export interface EventBus {
  /** Announces an event to every subscriber. */
  publish(event: SandboxEvent): void;
  /** Adds a subscriber; returns the function that removes it. */
  subscribe(listener: EventListener): () => void;
}

/** A bus with no subscribers. */
export function createEventBus(): EventBus {
  const listeners = new Set<EventListener>();
  return {
    publish(event) {
      for (const listener of listeners) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
