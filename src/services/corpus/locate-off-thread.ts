import { restoreError, ServerBusyError, ValidationError } from "../../errors.js";
import type { CorpusDocument, Question, QuestionInput } from "../../evaluators/questions.js";
import type { ChunksImport, ImportPlacement } from "../../strategies/imported-chunks.js";
import { WorkerPool, WorkerTaskFailure } from "../../worker-threads.js";
import { withoutPageFurniture } from "../../strategies/page-furniture.js";
import type { StoredDocument } from "../../domain/types.js";

/**
 * How long locating a run's references and imported chunks may take. Linear work on a corpus
 * of tens of MB takes seconds; past this the request is refused (422) rather than held.
 */
export const LOCATE_TIMEOUT_SECONDS = 30;

/** One worker: a server locates one request's items at a time, others wait their turn (each under its own deadline). */
const pool = new WorkerPool(import.meta.url, "locate-worker", { maxWorkers: 1 });

/** What locating found: the questions resolved, and per import how its chunks were placed and where those found only approximately are. */
export interface LocatedItems {
  questions: Question[];
  chunksLocated: Record<string, ImportPlacement["located"]>;
  /** Per import with any, the places in its file of the chunks found only as the same words. */
  chunksApproximate: Record<string, string[]>;
}

/**
 * Locates every question's references in the corpus and places every imported chunk (saying, per
 * import, how its chunks were placed: `chunksLocated`), in a
 * worker thread under a deadline: a request with many items over a long document keeps the
 * server's event loop free (its /healthz and every other request answer meanwhile). A reference
 * or chunk that is not there is the ValidationError naming it, as on the calling thread.
 */
export async function locateOffThread(
  source: string,
  questions: QuestionInput[],
  chunks: readonly ChunksImport[] | undefined,
  documents: readonly CorpusDocument[],
): Promise<LocatedItems> {
  // Only what locating reads crosses to the worker (a stored document carries more). References
  // and chunks are looked for in the text as chunking sees it, page furniture blanked (offsets are
  // the same): a passage copied across a page break from a reader has no running header or page
  // number in its middle. Then in the stored text: a chunk or excerpt cut from pdftotext's output
  // keeps them (text/locate-excerpt.ts, locateInDocument).
  const corpus = documents.map((d): CorpusDocument => {
    const text = "blocks" in d ? withoutPageFurniture(d as CorpusDocument & Pick<StoredDocument, "blocks">).text : d.text;
    return { id: d.id, filename: d.filename, text, ...(text === d.text ? {} : { textWithFurniture: d.text }) };
  });
  try {
    // The wait for the worker is bounded too: requests queued behind a long one are refused, not piled up.
    return await pool.run<LocatedItems>(
      { source, questions, chunks: chunks ?? [], documents: corpus },
      { timeoutMs: LOCATE_TIMEOUT_SECONDS * 1000, waitMs: LOCATE_TIMEOUT_SECONDS * 1000 },
    );
  } catch (error) {
    if (!(error instanceof WorkerTaskFailure)) throw error;
    if (error.kind === "threw") throw restoreError(error.className, error.message) ?? new ValidationError(`${source}: ${error.message}`);
    if (error.kind === "busy") {
      throw new ServerBusyError(`${source}: other requests' references are being located; retry later`);
    }
    if (error.kind === "timeout") {
      throw new ValidationError(
        `${source}: locating the references and chunks in the documents took longer than ${LOCATE_TIMEOUT_SECONDS} s; send fewer or shorter ones`,
      );
    }
    throw new ValidationError(`${source}: the references and chunks could not be located (${error.message})`);
  }
}
