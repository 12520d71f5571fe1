import { join } from "node:path";
import { type Config, isProduction } from "./config";
import { InstanceState } from "./instance-state";
import { RateLimiter } from "./services/auth/rate-limiter";
import { Clock } from "./services/clock";
import { Randomizer } from "./services/randomizer";
import { createStores, type Stores } from "./store";
import type { SqliteDatabase } from "./store/database";
import { openSqliteDatabase } from "./store/open";

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

/** Everything one running Engram instance shares: configuration, the database and the services' state. */
export interface AppContext {
  /** Distinguishes app instances in one process (tests), e.g. for Elysia plugin de-duplication. */
  instanceId: string;
  config: Config;
  /** The database, running store bodies as units of work (src/store/database.ts). */
  database: SqliteDatabase;
  /** Every store: the only way to the data (docs/architecture.md, "Data layer"). */
  stores: Stores;
  /** The drizzle and bun:sqlite handles, for the files not on the stores yet (the allow-list of tests/unit/store-boundary.test.ts). */
  db: SqliteDatabase["session"]["db"];
  sqlite: SqliteDatabase["connection"];
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

export function createContext(config: Config, databaseFile = join(config.dataDir, "engram.db")): AppContext {
  const database = openSqliteDatabase(databaseFile);
  const production = isProduction(config);
  const stores = createStores(database);
  return {
    instanceId: crypto.randomUUID(),
    config,
    database,
    stores,
    db: database.session.db,
    sqlite: database.connection,
    clock: new Clock(),
    randomizer: new Randomizer(production ? "random" : "first"),
    serviceUrls: new ServiceUrls(config),
    featureToggle: { enabled: false },
    signInLimiter: new RateLimiter(stores.signInLimits),
    state: new InstanceState(),
  };
}
