import { defineConfig } from "drizzle-kit";

// `npx drizzle-kit generate --config drizzle.postgres.config.ts` writes a new PostgreSQL migration
// into migrations-postgres/ from src/db/postgres/schema (the twin of src/db/schema: change both).
// Then run `bun scripts/embed-migrations.ts` so the server applies it.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/postgres/schema/index.ts",
  out: "./migrations-postgres",
});
