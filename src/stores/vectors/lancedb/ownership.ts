import { IndexFailedError } from "../../../errors.js";
import { connectVectorStore } from "./connect.js";
import { createOrOpenTable } from "./create-table.js";

/** A table at the root of the store, beside the namespaces' folders: the data directory it belongs to. */
const OWNER_TABLE = "owner";

/**
 * A vector store belongs to one data directory. Each data directory's SQLite knows only its own
 * generations, and the recovery sweep and `doctor --repair` delete vectors no generation of theirs
 * claims, so two data directories sharing one `vector_store_uri` would delete each other's
 * vectors. The first data directory to open a store records its id there; any other is refused.
 * Two first opens at once race on the creation, and the loser reads the winner's id.
 */
export async function claimStore(uri: string, dataDirectoryId: string): Promise<void> {
  const owner = await readOrRecordOwner(uri, dataDirectoryId).catch((error: unknown) => {
    // LanceDB's own message on an unreachable store is a multi-line Rust debug dump: keep its first line.
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 300);
    throw new IndexFailedError(`cannot open the vector store at ${uri}: ${reason}`, { cause: error });
  });
  if (owner !== dataDirectoryId) {
    throw new IndexFailedError(
      `the vector store at ${uri} belongs to another chunkeval data directory (${owner}; this one is ${dataDirectoryId}). ` +
        `Sharing it would let each delete the other's vectors: give each data directory its own vector_store_uri (e.g. a prefix of its own in the bucket). ` +
        `If that data directory is gone for good (or this one's chunkeval.sqlite was recreated), ` +
        `delete the store's ${OWNER_TABLE}.lance table to let this one take the store over.`,
    );
  }
}

/** The id recorded in the store, recording ours first if none is. */
async function readOrRecordOwner(uri: string, dataDirectoryId: string): Promise<string> {
  const db = await connectVectorStore(uri);
  try {
    const { table } = await createOrOpenTable(db, OWNER_TABLE, () => db.createTable(OWNER_TABLE, [{ data_directory_id: dataDirectoryId }], { mode: "create" }));
    const [row] = (await table.query().limit(1).toArray()) as Array<{ data_directory_id: string }>;
    table.close();
    // The table is created with its row in one commit, so it is never empty unless emptied by hand.
    return row?.data_directory_id ?? dataDirectoryId;
  } finally {
    db.close();
  }
}
