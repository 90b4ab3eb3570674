import { parentPort } from "node:worker_threads";
import { embedWithWindows, loadUseModel } from "./use-model.js";

/** A worker thread holding its own copy of USE lite; answers {id, texts} with {id, vectors}. */
const modelReady = loadUseModel();

parentPort!.on("message", async (message: { id: number; texts: string[] }) => {
  try {
    const vectors = await embedWithWindows(await modelReady, message.texts);
    parentPort!.postMessage(
      { id: message.id, vectors },
      vectors.map((v) => v.buffer as ArrayBuffer),
    );
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
