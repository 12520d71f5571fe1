import { join } from "node:path";
import { type Config, isProduction } from "./config";
import { InstanceState } from "./instance-state";
import { RateLimiter } from "./services/auth/rate-limiter";
import { Clock } from "./services/clock";
import { Randomizer } from "./services/randomizer";
import { createStores, type Stores } from "./store";
import type { SqliteDatabase } from "./store/database";
import { openDatabaseAt, openSqliteDatabase } from "./store/open";
import type { PostgresDatabase } from "./store/postgres-database";

/** Outbound service URLs that tests may point elsewhere at run time (replace_service_url). */
export class ServiceUrls {
  openAi: string;
  wikidata: string;
  constructor(private readonly config: Config) {
    this.openAi = config.openAiBaseUrl;
    this.wikidata = config.wikidataBaseUrl;
  }
  reset() {
    this.openAi = this.config.openAiBaseUrl;
    this.wikidata = this.config.wikidataBaseUrl;
  }
}

/** The app's database: the SQLite file (the default) or PostgreSQL (ENGRAM_DATABASE_URL); `dialect` tells them apart. */
export type AppDatabase = SqliteDatabase | PostgresDatabase;

/** Everything one running Engram instance shares: configuration, the database and the services' state. */
export interface AppContext {
  /** Distinguishes app instances in one process (tests), e.g. for Elysia plugin de-duplication. */
  instanceId: string;
  config: Config;
  /** The database, running store bodies as units of work (src/store/database.ts). */
  database: AppDatabase;
  /** Every store: the only way to the data (docs/architecture.md, "Data layer"). */
  stores: Stores;
  clock: Clock;
  randomizer: Randomizer;
  serviceUrls: ServiceUrls;
  /** The testability feature toggle (always false in production). */
  featureToggle: { enabled: boolean };
  /** Sign-in, sign-up and password-change limits, kept in the database (sign_in_limits). */
  signInLimiter: RateLimiter;
  /** What the instance keeps in memory beside the database (src/instance-state.ts). */
  state: InstanceState;
}

/**
 * An app context on SQLite, with the drizzle and bun:sqlite handles beside the stores: for tests
 * and tools that read the file directly (no source file outside src/store uses them; PostgreSQL
 * has no such handles).
 */
export interface SqliteAppContext extends AppContext {
  database: SqliteDatabase;
  db: SqliteDatabase["session"]["db"];
  sqlite: SqliteDatabase["connection"];
}

/** Opens the database the configuration names (ENGRAM_DATABASE_URL, or <data dir>/engram.db) and builds the context on it. */
export async function createContext(config: Config): Promise<AppContext> {
  if (!config.databaseUrl) return createSqliteContext(config);
  const database = (await openDatabaseAt({ postgresUrl: config.databaseUrl }, config.databasePoolSize)) as PostgresDatabase;
  return contextOn(config, database);
}

/** The context on a SQLite file (the data folder's engram.db unless told), opened at once. */
export function createSqliteContext(config: Config, databaseFile = join(config.dataDir, "engram.db")): SqliteAppContext {
  const database = openSqliteDatabase(databaseFile);
  return { ...contextOn(config, database), database, db: database.session.db, sqlite: database.connection };
}

/** The context on an open database. */
export function contextOn(config: Config, database: AppDatabase): AppContext {
  const production = isProduction(config);
  const stores = createStores(database);
  return {
    instanceId: crypto.randomUUID(),
    config,
    database,
    stores,
    clock: new Clock(),
    randomizer: new Randomizer(production ? "random" : "first"),
    serviceUrls: new ServiceUrls(config),
    featureToggle: { enabled: false },
    signInLimiter: new RateLimiter(stores.signInLimits),
    state: new InstanceState(),
  };
}
