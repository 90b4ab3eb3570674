/**
 * Where uploaded originals are kept: the bytes of each document (`upload`, `POST /documents`) and of
 * each `/v1` version. A caller names what it stores (`files/doc_….docx`) and records the location
 * it gets back in the metadata row; reads and removals go by that location.
 */
export interface OriginalsStore {
  /** Stores bytes under `name` (replacing what was there) and returns the location to record. */
  put(name: string, bytes: Buffer): Promise<string>;
  /** The bytes at a location, or null when nothing is stored there. */
  read(location: string): Promise<Buffer | null>;
  /** Removes what is stored at a location; nothing there is not an error. */
  remove(location: string): Promise<void>;
  /** Everything stored (half-written files included), with when it was written: what `doctor` checks against the rows that name originals. */
  list(): Promise<Array<{ location: string; storedAtMs: number }>>;
  close(): Promise<void>;
}
