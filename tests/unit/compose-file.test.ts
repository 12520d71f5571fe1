/**
 * compose.yaml and its Caddyfile (the README's "Running on PostgreSQL"): Docker is not run here,
 * so this checks that they agree with each other, with the Dockerfile and with the README.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_POOL_SIZE, OLDEST_SERVER_VERSION, parsePostgresUrl } from "../../src/db/postgres/connection";

const root = join(import.meta.dir, "../..");
const read = (file: string) => readFileSync(join(root, file), "utf8");

interface Service {
  image?: string;
  build?: string | { context: string; dockerfile?: string };
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
}
const compose = Bun.YAML.parse(read("compose.yaml")) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;
const engrams = Object.entries(services).filter(([name]) => name.startsWith("engram"));
const dockerfile = read("Dockerfile");
const caddyfile = read("Caddyfile");
const readme = read("README.md");

/** A value of the Dockerfile's ENV lines. */
function dockerEnv(name: string): string {
  const match = new RegExp(`\\b${name}=(\\S+)`).exec(dockerfile);
  if (!match) throw new Error(`The Dockerfile sets no ${name}`);
  return match[1]!;
}

/** compose's ${NAME:?…} and ${NAME:-default} as a value, the way `docker compose config` would with the variable set to `set`. */
const interpolated = (text: string) =>
  text.replace(/\$\{(\w+)(?::[?-]([^}]*))?\}/g, (_, name, fallback) =>
    name === "ENGRAM_PUBLIC_URL" || name === "ENGRAM_SITE" ? fallback : "set",
  );

describe("compose.yaml", () => {
  test("PostgreSQL 15 or newer, from the official image, with the user and database the replicas name", () => {
    const postgres = services.postgres!;
    const [, tag] = /^postgres:(\d+)/.exec(postgres.image ?? "") ?? [];
    expect(Number(tag)).toBeGreaterThanOrEqual(OLDEST_SERVER_VERSION);
    expect(postgres.healthcheck?.test).toContain("pg_isready");
    for (const [, engram] of engrams) {
      const url = parsePostgresUrl(interpolated(engram.environment!.ENGRAM_DATABASE_URL!));
      expect(url).toEqual({
        host: "postgres",
        port: 5432,
        user: postgres.environment!.POSTGRES_USER!,
        database: postgres.environment!.POSTGRES_DB!,
      });
      expect(interpolated(engram.environment!.ENGRAM_DATABASE_URL!)).toContain(
        `:${interpolated(postgres.environment!.POSTGRES_PASSWORD!)}@`,
      );
    }
  });

  test("two Engram replicas built from the Dockerfile, on its port, sharing one volume at its data folder, healthy before the proxy starts", () => {
    expect(engrams.map(([name]) => name)).toEqual(["engram-1", "engram-2"]);
    expect(existsSync(join(root, "Dockerfile"))).toBe(true);
    const volumes = new Set<string>();
    for (const [, engram] of engrams) {
      expect(engram.build).toBe(".");
      expect(engram.environment!.PORT).toBe(dockerEnv("PORT"));
      expect(dockerfile).toContain(`EXPOSE ${engram.environment!.PORT}`);
      const [volume, target] = engram.volumes![0]!.split(":");
      expect(target).toBe(dockerEnv("ENGRAM_DATA_DIR"));
      expect(Object.keys(compose.volumes)).toContain(volume!);
      volumes.add(volume!);
      expect(engram.healthcheck!.test).toEqual(["CMD", "/app/engram", "healthcheck"]);
      expect(dockerfile).toContain('CMD ["/app/engram", "healthcheck"]');
      expect(engram.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
      // Longer than Engram's default shutdown grace (10 s), as the Dockerfile asks of Compose.
      expect(dockerfile).toContain(`stop_grace_period: ${engram.stop_grace_period}`);
    }
    expect(volumes.size).toBe(1);
    expect(services.caddy!.depends_on).toEqual({
      "engram-1": { condition: "service_healthy" },
      "engram-2": { condition: "service_healthy" },
    });
  });

  test("the replicas' pools together stay under PostgreSQL's max_connections (100 unless set)", () => {
    const total = engrams.reduce((sum, [, engram]) => sum + Number(engram.environment!.ENGRAM_DATABASE_POOL_SIZE ?? DEFAULT_POOL_SIZE), 0);
    expect(total).toBeLessThan(100);
  });

  test("Caddy shares requests round robin between exactly the replicas, on their port, checking /api/healthcheck", () => {
    const caddy = services.caddy!;
    expect(caddy.image).toStartWith("caddy:2");
    expect(caddy.volumes).toContain("./Caddyfile:/etc/caddy/Caddyfile:ro");
    const upstreams = /reverse_proxy\s+([^{\n]+)\{/.exec(caddyfile)![1]!.trim().split(/\s+/);
    expect(upstreams).toEqual(engrams.map(([name, engram]) => `${name}:${engram.environment!.PORT}`));
    expect(caddyfile).toMatch(/lb_policy round_robin/);
    expect(caddyfile).toMatch(/health_uri \/api\/healthcheck/);
    expect(read("src/api/health.ts")).toContain('"/healthcheck"');
    expect(caddy.ports).toContain("80:80");
    expect(caddyfile).toContain("{$ENGRAM_SITE::80}");
    expect(interpolated(caddy.environment!.ENGRAM_SITE!)).toBe(":80");
  });

  test("the README's PostgreSQL section names the compose file, the command, and every ENGRAM_ variable the file sets", () => {
    const section = readme.slice(readme.indexOf("## Running on PostgreSQL"));
    expect(section.length).toBeLessThan(readme.length);
    expect(section).toContain("compose.yaml");
    expect(section).toContain("engram migrate-to-postgres");
    expect(section).toContain("npm run test:postgres");
    const variables = new Set([...read("compose.yaml").matchAll(/\b(ENGRAM_[A-Z_]+)\b/g)].map((match) => match[1]!));
    for (const variable of variables)
      expect({ variable, documented: readme.includes(`\`${variable}\``) }).toEqual({ variable, documented: true });
  });
});
