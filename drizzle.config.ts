import { defineConfig } from "drizzle-kit";

// `npx drizzle-kit generate` writes a new SQL migration into migrations/ from src/db/schema.
// Then run `bun scripts/embed-migrations.ts` so the server (and the single binary) applies it.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema/index.ts",
  out: "./migrations",
});
