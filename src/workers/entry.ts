/** The worker process's entry when Engram runs from a clone (`bun src/workers/entry.ts`). */
import { serveWorkerTasks } from "./serve";
import { workerTasks } from "./tasks";

serveWorkerTasks(workerTasks);
