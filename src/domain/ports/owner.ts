/**
 * Who is doing a piece of work that other processes sharing the metadata store can see: a
 * pending generation, a background job, an ingestion job (stores/README.md, "Several processes").
 */
export interface Owner {
  /** Random per opened chunkeval instance: tells two instances inside one process apart. */
  instance: string;
  pid: number;
  host: string;
}
