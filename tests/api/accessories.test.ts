import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { injectNotes } from "../support/notes";
import { makePng } from "../support/png";
import { type HttpClient, startTestServer, type TestServer } from "../support/server";

describe("note accessories", () => {
  let server: TestServer;
  let learner: HttpClient;
  let ids: Record<string, number>;

  /** PATCH /api/notes/{note} as multipart form data, as the browser sends it. */
  async function patchAccessories(client: HttpClient, noteId: number, fields: Record<string, string | File>) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const headers: Record<string, string> = client.sessionCookie ? { cookie: `engram_session=${client.sessionCookie}` } : {};
    const response = await fetch(`${server.url}/api/notes/${noteId}`, { method: "PATCH", body: form, headers });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async function getImage(client: HttpClient, path: string) {
    const headers: Record<string, string> = client.sessionCookie ? { cookie: `engram_session=${client.sessionCookie}` } : {};
    return fetch(`${server.url}${path}`, { headers });
  }

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  beforeEach(async () => {
    await server.client().post("/api/testability/clean_db_and_reset_testability_settings");
    learner = await server.client().loginAs("old_learner");
    ids = await injectNotes(learner, [
      { Title: "Map" },
      { Title: "Europe", "Parent Title": "Map" },
      { Title: "France", "Parent Title": "Europe" },
    ]);
  });

  test("an uploaded PNG is stored and served with its type, checked by its bytes", async () => {
    const png = makePng(40, 30);
    const saved = await patchAccessories(learner, ids.Map!, {
      uploadImage: new File([png], "map.png", { type: "image/png" }),
      imageMask: "1 2 10 5",
    });
    expect(saved.status).toBe(200);
    expect(saved.body.id).toBe(ids.Map);
    expect(saved.body.imageWithMask.noteImage).toMatch(/^\/api\/images\/\d+\/image\.png$/);
    expect(saved.body.imageWithMask.imageMask).toBe("1 2 10 5");
    expect(saved.body.uploadedImage).toBe(saved.body.imageWithMask.noteImage);
    expect((await learner.get(`/api/notes/${ids.Map}/accessory`)).body).toEqual(saved.body);

    const image = await getImage(learner, saved.body.imageWithMask.noteImage);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    expect(image.headers.get("cache-control")).toContain("max-age=31536000");
    expect(Buffer.from(await image.arrayBuffer()).equals(Buffer.from(png))).toBe(true);
  });

  test("the type comes from the bytes, not from the name or the declared type", async () => {
    const gifNamedJpg = new File([new Uint8Array(Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1"))], "photo.jpg", {
      type: "image/jpeg",
    });
    const saved = await patchAccessories(learner, ids.Map!, { uploadImage: gifNamedJpg });
    expect(saved.status).toBe(200);
    expect(saved.body.imageWithMask.noteImage).toEndWith(".gif");
    expect((await getImage(learner, saved.body.imageWithMask.noteImage)).headers.get("content-type")).toBe("image/gif");
  });

  test("text named .png is refused, and so is an image over 5 MiB", async () => {
    const fake = await patchAccessories(learner, ids.Map!, {
      uploadImage: new File(["<svg onload=alert(1)>"], "evil.png", { type: "image/png" }),
    });
    expect(fake.status).toBe(400);
    expect(fake.body.errors.uploadImage).toBe("must be a PNG, JPEG, GIF or WebP image");
    const huge = new Uint8Array(Buffer.concat([makePng(1, 1), Buffer.alloc(5 * 1024 * 1024)]));
    const tooLarge = await patchAccessories(learner, ids.Map!, { uploadImage: new File([huge], "huge.png", { type: "image/png" }) });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.errors.uploadImage).toBe("The image must be at most 5 MiB");
    const accessory = (await learner.get(`/api/notes/${ids.Map}/accessory`)).body;
    expect(accessory).toEqual({ id: ids.Map, useParentImage: false });
  });

  test("URLs must be http or https; an empty field clears the value", async () => {
    const bad = await patchAccessories(learner, ids.Map!, { url: "javascript:alert(1)", imageUrl: "not a url" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ url: "must be an http or https URL", imageUrl: "must be an http or https URL" });
    expect((await patchAccessories(learner, ids.Map!, { url: "ftp://example.com/x" })).body.errors.url).toBe(
      "must be an http or https URL",
    );

    const good = await patchAccessories(learner, ids.Map!, {
      url: " https://en.wikipedia.org/wiki/Map ",
      imageUrl: "http://example.com/map.jpg",
    });
    expect(good.status).toBe(200);
    expect(good.body.url).toBe("https://en.wikipedia.org/wiki/Map");
    expect(good.body.imageWithMask).toEqual({ noteImage: "http://example.com/map.jpg" });

    // A field left out stays; an empty one clears.
    const maskOnly = await patchAccessories(learner, ids.Map!, { imageMask: "0 0 5 5" });
    expect(maskOnly.body.url).toBe("https://en.wikipedia.org/wiki/Map");
    const cleared = await patchAccessories(learner, ids.Map!, { url: "", imageUrl: "", imageMask: "" });
    expect(cleared.body).toEqual({ id: ids.Map, useParentImage: false });
  });

  test("the mask is groups of four non-negative numbers", async () => {
    for (const imageMask of ["1 2 3", "1 2 3 -4", "a b c d", "1 2 3 4 5", "1e3 2 3 4"]) {
      const refused = await patchAccessories(learner, ids.Map!, { imageMask });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.imageMask).toBe("must be groups of four non-negative numbers: x y width height");
    }
    const saved = await patchAccessories(learner, ids.Map!, { imageMask: " 1 2.5 3 4\n 10  20 30 40 " });
    expect(saved.body.imageMask).toBe("1 2.5 3 4 10 20 30 40");
  });

  test("use parent image shows the nearest ancestor's image with the note's own mask", async () => {
    await patchAccessories(learner, ids.Map!, { imageUrl: "https://example.com/world.png" });
    const europe = await patchAccessories(learner, ids.Europe!, { useParentImage: "true", imageMask: "10 10 20 20" });
    expect(europe.body.useParentImage).toBe(true);
    expect(europe.body.imageWithMask).toEqual({ noteImage: "https://example.com/world.png", imageMask: "10 10 20 20" });
    // France uses its parent's, which itself uses the map's: the nearest image up the tree.
    const france = await patchAccessories(learner, ids.France!, { useParentImage: "true" });
    expect(france.body.imageWithMask).toEqual({ noteImage: "https://example.com/world.png" });
    await patchAccessories(learner, ids.Europe!, { useParentImage: "false", imageUrl: "https://example.com/europe.png" });
    expect((await learner.get(`/api/notes/${ids.France}/accessory`)).body.imageWithMask.noteImage).toBe("https://example.com/europe.png");

    const head = await patchAccessories(learner, ids.Map!, { useParentImage: "true" });
    expect(head.status).toBe(400);
    expect(head.body.errors.useParentImage).toBe("A notebook's head note has no parent image to use");
    expect((await patchAccessories(learner, ids.Europe!, { useParentImage: "maybe" })).body.errors.useParentImage).toBe(
      "must be true or false",
    );
  });

  test("an image URL replaces an upload, whose stored image is then deleted", async () => {
    const uploaded = await patchAccessories(learner, ids.Map!, { uploadImage: new File([makePng(2, 2)], "a.png") });
    const path = uploaded.body.uploadedImage;
    expect((await getImage(learner, path)).status).toBe(200);
    const replaced = await patchAccessories(learner, ids.Map!, { imageUrl: "https://example.com/b.png" });
    expect(replaced.body.uploadedImage).toBeUndefined();
    expect(replaced.body.imageWithMask.noteImage).toBe("https://example.com/b.png");
    expect((await getImage(learner, path)).status).toBe(404);

    const again = await patchAccessories(learner, ids.Map!, { uploadImage: new File([makePng(2, 2)], "c.png") });
    expect(again.body.imageUrl).toBeUndefined();
    const removed = await patchAccessories(learner, ids.Map!, { uploadImage: "" });
    expect(removed.body).toEqual({ id: ids.Map, useParentImage: false });
  });

  test("only those who may read the note see its accessory and image; only editors change them", async () => {
    const saved = await patchAccessories(learner, ids.Map!, {
      uploadImage: new File([makePng(3, 3)], "a.png"),
      url: "https://example.com",
    });
    const imagePath = saved.body.uploadedImage;
    const other = await server.client().loginAs("another_old_learner");
    expect((await other.get(`/api/notes/${ids.Map}/accessory`)).status).toBe(403);
    expect((await patchAccessories(other, ids.Map!, { url: "https://evil.example.com" })).status).toBe(403);
    expect((await getImage(other, imagePath)).status).toBe(403);
    const nobody = server.client();
    expect((await nobody.get(`/api/notes/${ids.Map}/accessory`)).status).toBe(401);
    expect((await patchAccessories(nobody, ids.Map!, { url: "https://evil.example.com" })).status).toBe(401);
    expect((await getImage(nobody, imagePath)).status).toBe(401);
    expect((await learner.get("/api/notes/424242/accessory")).status).toBe(404);
    expect((await getImage(learner, "/api/images/424242/image.png")).status).toBe(404);
    expect((await learner.get(`/api/notes/${ids.Map}/accessory`)).body.url).toBe("https://example.com");
  });
});
