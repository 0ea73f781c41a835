// The imported-history note (issue 17 part 3's `imported` marker) in Chromium against the real daemon: a
// small Umami export brought in with `tracker import` while the daemon runs shows as "Includes history
// imported from Umami, <days>" beside the figures on both dashboards, readable at 390 px; a site without
// imports shows no note.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon } from "./helpers.mjs";
import { overflowsHorizontally, ownerWithSites } from "./site-owner.mjs";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const dayOf = (daysAgo) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const label = (day) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}, ${day.slice(0, 4)}`;

describe("imported history note", () => {
  let daemon, browser, context, page, tmp;

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
    page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    tmp = mkdtempSync(join(tmpdir(), "tracker-import-note-"));
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("shows the tool and the imported days beside the figures, and nothing on a site without imports", async () => {
    const owner = await ownerWithSites(page, daemon.url, "imported-note@example.com", [
      { name: "Imported", domain: "imported.example.com", trackingLevel: "light" },
      { name: "Fresh", domain: "fresh.example.com", trackingLevel: "light" },
    ]);
    const [imported, fresh] = owner.sites;
    // Three page views of one Umami visit five days ago and one two days ago (inside the 30-day range).
    const [first, last] = [dayOf(5), dayOf(2)];
    const header = "session_id,visit_id,hostname,url_path,event_type,event_name,created_at";
    const rows = [`s1,v1,imported.example.com,/,1,,${first} 10:00:00`, `s1,v1,imported.example.com,/pricing,1,,${first} 10:01:00`, `s2,v2,imported.example.com,/,1,,${last} 09:00:00`];
    const file = join(tmp, "umami-events.csv");
    writeFileSync(file, `${header}\n${rows.join("\n")}\n`);
    execFileSync(daemon.bin, ["--data-dir", daemon.dataDir, "import", "--site", String(imported.id), "--from", "umami", file], { stdio: "pipe" });

    const expected = `Includes history imported from Umami, ${label(first)} – ${label(last)}`;
    for (const path of [`/dashboard?website=${imported.id}`, `/?website=${imported.id}`]) {
      await page.goto(path);
      const note = page.getByTestId("imported-note");
      await note.waitFor();
      assert.equal((await note.innerText()).trim(), expected, path);
    }

    // At 390 px the note wraps inside the page: readable, no sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/dashboard?website=${imported.id}`);
    const note = page.getByTestId("imported-note");
    await note.waitFor();
    const box = await note.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `note inside the 390 px viewport: ${JSON.stringify(box)}`);
    assert.equal(await overflowsHorizontally(page), false);
    await screenshot(page, "imported-note-390");
    await page.setViewportSize({ width: 1400, height: 900 });

    // The site without imports: its figures load, and no note.
    const answered = page.waitForResponse((r) => r.url().includes(`/api/dashboard/overview?website_id=${fresh.id}`));
    await page.goto(`/dashboard?website=${fresh.id}`);
    await page.getByRole("heading", { name: "Fresh" }).waitFor();
    await answered;
    // Rendered with its answer: two frames after it came in.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const overview = await owner.api("GET", `/api/dashboard/overview?website_id=${fresh.id}&range=30d`);
    assert.equal(overview.imported ?? null, null);
    assert.equal(await page.getByTestId("imported-note").count(), 0);
  });
});
