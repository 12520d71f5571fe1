/**
 * The worker side: a process started by run-task.ts that runs one task and answers. It stops
 * when Engram goes away (the IPC channel closes), so an orphan never keeps working.
 */
import { isRunMessage, type ResultMessage, type WorkerTask } from "./protocol";

export function serveWorkerTasks(tasks: Record<string, WorkerTask<never>>) {
  if (!process.send) {
    console.error("This is an Engram worker: it is started by Engram itself, not by hand.");
    process.exit(2);
  }
  process.on("disconnect", () => process.exit(0));
  process.once("message", async (message: unknown) => {
    let reply: ResultMessage;
    try {
      if (!isRunMessage(message)) throw new Error("the worker was sent something other than a task");
      const task = tasks[message.task];
      if (!task) throw new Error(`the worker knows no task "${message.task}"`);
      reply = { type: "done", output: await task(message.input as never) };
    } catch (error) {
      const { name, message: text } = error instanceof Error ? error : new Error(String(error));
      reply = { type: "failed", error: { name, message: text } };
    }
    process.send!(reply);
  });
}
