import type { ApiClient } from '../api/client';
import { agents } from '../api/resources';

/** How many agent reads run at once when a page of rows names many new agents. */
const READS_IN_FLIGHT = 8;

/**
 * Agent names for rows that carry only `agent_id` (sessions, triggers): one read per agent for the life of the
 * cache, however many rows name it. An agent that cannot be read (deleted, no access, service down) has no name;
 * the row shows its ID and the read is not repeated.
 */
export class AgentNames {
  private readonly names = new Map<string, string | undefined>();
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly client: ApiClient) {}

  /** The name once known, else undefined (not read yet, or no name). */
  nameOf(id: unknown): string | undefined {
    return typeof id === 'string' ? this.names.get(id) : undefined;
  }

  /** Reads the agents of `ids` that were never read, at most READS_IN_FLIGHT at once. */
  async load(ids: Iterable<unknown>): Promise<void> {
    const todo = [...new Set([...ids].filter((id): id is string => typeof id === 'string' && id !== ''))].filter((id) => !this.names.has(id));
    const waits: Promise<void>[] = [];
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const id = todo[next++];
        waits.push(this.read(id));
        await this.pending.get(id);
      }
    };
    await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, todo.length) }, worker));
    await Promise.all(waits);
  }

  private read(id: string): Promise<void> {
    const inFlight = this.pending.get(id);
    if (inFlight) return inFlight;
    const p = agents
      .get(this.client, id)
      .then(
        (a) => void this.names.set(id, typeof a?.name === 'string' && a.name !== '' ? a.name : undefined),
        () => void this.names.set(id, undefined),
      )
      .finally(() => this.pending.delete(id));
    this.pending.set(id, p);
    return p;
  }
}
