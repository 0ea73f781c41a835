// A site shared with a viewer, in Chromium against the real daemon: the owner invites an address, the invited
// account accepts with the link's token, and then sees the site among its websites marked Viewer, reads its
// dashboard and events, and finds no control its role may not use (no delete, members, share, create or edit);
// the owner, on the same screens, has each of them, so the checks can tell the two apart. The viewer turns the
// site's weekly report on for itself on its card (the owner's card has no such switch: its emails are the account's). An editor, invited the
// same way, has the editor's controls (annotations, shared segments, organization edits) and not the admin's (privacy
// settings and deletions, site settings, imports): on each screen the three roles are checked side by side.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { ownerWithSites, track } from "./site-owner.mjs";

// A public address the bundled ASN data maps to an organization (Google LLC), so the Organizations screen has a row.
const GOOGLE = "8.8.8.8";

describe("a viewer's controls", () => {
  let daemon, browser, ownerPage, viewerPage, editorPage, site, owner, editor;

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    const open = async () => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
      const page = await context.newPage();
      page.on("pageerror", (e) => console.error("page error:", e));
      return page;
    };
    [ownerPage, viewerPage, editorPage] = [await open(), await open(), await open()];
    owner = await ownerWithSites(ownerPage, daemon.url, "team-owner@example.com", [{ name: "Team", domain: "team.example.com", trackingLevel: "professional" }]);
    [site] = owner.sites;
    await owner.api("POST", `/api/websites/${site.id}/event-definitions`, { name: "signup", displayName: "Signup", eventType: "custom" });
    await track(daemon.url, { tracking_key: site.trackingKey, session_id: "team-visit-1", url: "https://team.example.com/" }, GOOGLE);
    await owner.api("POST", `/api/websites/${site.id}/annotations`, { date: new Date().toISOString().slice(0, 10), text: "Launch day" });
    const invited = await owner.api("POST", `/api/websites/${site.id}/members`, { email: "team-viewer@example.com", role: "viewer" });
    const viewer = await ownerWithSites(viewerPage, daemon.url, "team-viewer@example.com", []);
    const token = new URLSearchParams(invited.link.split("#")[1]).get("token");
    const accepted = await viewer.api("POST", `/api/user/invitations/${invited.id}/accept`, { token });
    assert.equal(accepted.role, "viewer");

    const asEditor = await owner.api("POST", `/api/websites/${site.id}/members`, { email: "team-editor@example.com", role: "editor" });
    editor = await ownerWithSites(editorPage, daemon.url, "team-editor@example.com", []);
    const editorToken = new URLSearchParams(asEditor.link.split("#")[1]).get("token");
    assert.equal((await editor.api("POST", `/api/user/invitations/${asEditor.id}/accept`, { token: editorToken })).role, "editor");
  });

  /** Each role's page with whether it should have the control: the owner's is there to show the check can fail. */
  const roles = () => [
    { who: "viewer", page: viewerPage, editor: false, admin: false },
    { who: "editor", page: editorPage, editor: true, admin: false },
    { who: "owner", page: ownerPage, editor: true, admin: true },
  ];

  /** Waits for `locator` to be there when `present`, else asserts it is absent (once the screen has loaded). */
  async function expectControl(locator, present, what) {
    if (present) await locator.first().waitFor();
    else assert.equal(await locator.count(), 0, what);
  }

  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("lets a member turn the shared site's report and alerts on for itself, and not the owner's card", async () => {
    await viewerPage.goto("/websites");
    const card = viewerPage.getByTestId("website-card").filter({ hasText: "team.example.com" });
    const report = card.getByRole("switch", { name: "Weekly report" });
    const alerts = card.getByRole("switch", { name: "Traffic alerts" });
    await report.waitFor();
    assert.equal(await report.getAttribute("aria-checked"), "false", "off until the member asks");
    assert.equal(await alerts.getAttribute("aria-checked"), "false");
    await report.click();
    await viewerPage.waitForFunction((el) => el.getAttribute("aria-checked") === "true", await report.elementHandle());
    const mine = `/api/websites/${site.id}/members/me/notifications`;
    assert.deepEqual(await owner.api("GET", mine), { reports: true, alerts: false, followsAccount: true }, "the owner's are the account's");
    await viewerPage.reload();
    await card.getByRole("switch", { name: "Weekly report" }).waitFor();
    assert.equal(await card.getByRole("switch", { name: "Weekly report" }).getAttribute("aria-checked"), "true", "saved");
    assert.equal(await card.getByRole("switch", { name: "Traffic alerts" }).getAttribute("aria-checked"), "false");
    await screenshot(viewerPage, "members-viewer-emails");

    await ownerPage.goto("/websites");
    const own = ownerPage.getByTestId("website-card").filter({ hasText: "team.example.com" });
    await own.getByRole("button", { name: `Members of ${site.name}` }).waitFor();
    assert.equal(await own.getByTestId("member-emails").count(), 0, "the owner's follow Settings, Notifications");
  });

  it("lists the shared site as Viewer without delete, members or share", async () => {
    await viewerPage.goto("/websites");
    const card = viewerPage.getByTestId("website-card").filter({ hasText: "team.example.com" });
    await waitForText(card, /Viewer/);
    for (const name of [`Delete ${site.name}`, `Members of ${site.name}`, "Share"]) {
      assert.equal(await card.getByRole("button", { name }).count(), 0, `a viewer has no "${name}"`);
    }
    await screenshot(viewerPage, "members-viewer-websites");

    await ownerPage.goto("/websites");
    const own = ownerPage.getByTestId("website-card").filter({ hasText: "team.example.com" });
    for (const name of [`Delete ${site.name}`, `Members of ${site.name}`, "Share"]) {
      await own.getByRole("button", { name }).waitFor();
    }
  });

  it("reads the dashboard and the events, with no create or edit controls", async () => {
    await viewerPage.goto(`/dashboard?website=${site.id}&range=7d`);
    await waitForText(viewerPage.getByTestId("metric-Total Visitors").getByTestId("metric-value"), /^1$/);

    await viewerPage.goto(`/events?website=${site.id}`);
    await waitForText(viewerPage.getByTestId("event-definition"), /Signup/);
    assert.equal(await viewerPage.getByRole("button", { name: "Create Event" }).count(), 0);
    assert.equal(await viewerPage.getByRole("button", { name: "Edit Signup" }).count(), 0);
    assert.equal(await viewerPage.getByRole("button", { name: "Delete Signup" }).count(), 0);

    await ownerPage.goto(`/events?website=${site.id}`);
    await waitForText(ownerPage.getByTestId("event-definition"), /Signup/);
    await ownerPage.getByRole("button", { name: "Create Event" }).waitFor();
    await ownerPage.getByRole("button", { name: "Edit Signup" }).waitFor();
  });

  it("offers annotation writes to editors and up, and segments to everyone: shared ones to editors", async () => {
    const filters = encodeURIComponent('[["is","visit:country",["DE"]]]');
    for (const { who, page, editor } of roles()) {
      await page.goto(`/?website=${site.id}&range=7d&filters=${filters}`);
      await waitForText(page.getByTestId("annotation-item"), /Launch day/);
      await expectControl(page.getByRole("button", { name: "Add annotation" }), editor, `${who}: Add annotation`);
      await expectControl(page.getByRole("button", { name: "Delete annotation Launch day" }), editor, `${who}: delete an annotation`);
      await expectControl(page.getByRole("button", { name: "Edit annotation Launch day" }), editor, `${who}: edit an annotation`);
      await page.getByTestId("segments-trigger").click();
      await page.getByRole("menuitem", { name: "Save as segment…" }).click();
      const dialog = page.getByRole("dialog", { name: "Save as segment" });
      const personal = dialog.getByRole("checkbox", { name: /Only for me/ });
      // A viewer's segment is its own: the choice is made for it.
      assert.equal(await personal.isChecked(), !editor, `${who}: only for me by default`);
      assert.equal(await personal.isDisabled(), !editor, `${who}: the choice is ${editor ? "open" : "fixed"}`);
      await dialog.getByLabel("Name").fill(`${who}'s own`);
      if (editor) await personal.check();
      await dialog.getByRole("button", { name: "Save segment" }).click();
      await waitForText(page.getByTestId("segments-trigger"), `Segment: ${who}'s own`);
      await page.getByTestId("segments-trigger").click();
      const mine = page.getByTestId("segment-item").filter({ hasText: `${who}'s own` });
      await waitForText(mine, /only you/);
      await page.getByRole("menuitem", { name: `Delete segment ${who}'s own` }).click();
      await page.getByTestId("segments-trigger").click();
      await page.getByRole("menu").waitFor();
      assert.equal(await mine.count(), 0, `${who}: deleted its own`);
      await page.keyboard.press("Escape");
    }
  });

  it("offers organization edits to editors and up", async () => {
    for (const { who, page, editor } of roles()) {
      await page.goto(`/organizations?website=${site.id}`);
      await waitForText(page.getByTestId("organization-row"), /Google LLC/);
      await expectControl(page.getByRole("button", { name: "Edit Google LLC" }), editor, `${who}: Edit an organization`);
    }
  });

  it("shows the privacy settings read-only below admin, without deletions", async () => {
    for (const { who, page, admin } of roles()) {
      await page.goto(`/advanced-analytics?website=${site.id}&tab=privacy`);
      const toggle = page.getByRole("switch", { name: "Anonymize IP Addresses" });
      await toggle.waitFor();
      assert.equal(await toggle.isDisabled(), !admin, `${who}: the toggles ${admin ? "change" : "are read-only"}`);
      await page.getByRole("button", { name: "Export Pageviews" }).waitFor();
      await expectControl(page.getByRole("button", { name: "Delete Data" }), admin, `${who}: Delete Data`);
      await expectControl(page.getByRole("button", { name: "Delete Visitor Data" }), admin, `${who}: Delete Visitor Data`);
      await page.getByRole("tab", { name: "Retention" }).click();
      const days = page.getByLabel("Pageviews (days)");
      await days.waitFor();
      assert.equal(await days.isDisabled(), !admin, `${who}: retention ${admin ? "changes" : "is read-only"}`);
      if (who === "viewer") await screenshot(page, "members-viewer-privacy");
    }
  });

  it("offers the site settings and deletion on All Sites, and imports, only to those who may", async () => {
    for (const { who, page, admin } of roles()) {
      await page.goto("/basic-dashboard");
      await page.getByRole("button", { name: `Actions for ${site.name}` }).click();
      await page.getByRole("menuitem", { name: "Get Code" }).waitFor();
      await expectControl(page.getByRole("menuitem", { name: "Edit" }), admin, `${who}: Edit the site's settings`);
      await expectControl(page.getByRole("menuitem", { name: "Delete" }), who === "owner", `${who}: Delete the site`);
      await page.keyboard.press("Escape");

      await page.goto("/settings?tab=import");
      const select = page.locator("#import-site");
      await select.waitFor();
      const offered = await select.locator("option").allTextContents();
      assert.equal(offered.some((o) => o.includes("team.example.com")), admin, `${who}: imports into the shared site`);
    }
  });

  it("lets an editor change an annotation's text and day, and delete it, from its dialog", async () => {
    const day = (ago) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const made = await owner.api("POST", `/api/websites/${site.id}/annotations`, { date: day(1), text: "Beta opens" });
    const stored = async () => (await owner.api("GET", `/api/websites/${site.id}/annotations`)).find((a) => a.id === made.id);
    await editorPage.goto(`/?website=${site.id}&range=7d`);
    await editorPage.getByRole("button", { name: "Edit annotation Beta opens" }).click();
    const dialog = editorPage.getByRole("dialog", { name: "Edit annotation" });
    assert.equal(await dialog.getByLabel("Text").inputValue(), "Beta opens");
    assert.equal(await dialog.getByLabel("Day (UTC)").inputValue(), day(1));
    await dialog.getByLabel("Text").fill("Public beta");
    await dialog.getByLabel("Day (UTC)").fill(day(3));
    await dialog.getByRole("button", { name: "Save annotation" }).click();
    await dialog.waitFor({ state: "detached" });
    await waitForText(editorPage.getByTestId("chart-annotations"), /Public beta/);
    const changed = await stored();
    assert.deepEqual([changed.text, changed.date], ["Public beta", day(3)]);

    await editorPage.getByRole("button", { name: "Edit annotation Public beta" }).click();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await dialog.waitFor({ state: "detached" });
    await editorPage.getByRole("button", { name: "Edit annotation Public beta" }).waitFor({ state: "detached" });
    assert.equal(await stored(), undefined, "deleted on the server");
  });

  it("lets the owner hand a site over to an admin from the Members dialog, and keeps them on as an admin", async () => {
    const handoff = await owner.api("POST", "/api/websites", { name: "Handoff", domain: "handoff.example.com" });
    const invited = await owner.api("POST", `/api/websites/${handoff.id}/members`, { email: "team-editor@example.com", role: "admin" });
    const token = new URLSearchParams(invited.link.split("#")[1]).get("token");
    assert.equal((await editor.api("POST", `/api/user/invitations/${invited.id}/accept`, { token })).role, "admin");

    await ownerPage.goto("/websites");
    const card = ownerPage.getByTestId("website-card").filter({ hasText: "handoff.example.com" });
    await card.getByRole("button", { name: "Members of Handoff" }).click();
    const dialog = ownerPage.getByRole("dialog", { name: "Members" });
    await dialog.getByRole("button", { name: "Make team-editor@example.com the owner" }).click();
    await waitForText(dialog.getByTestId("hand-over"), /Make team-editor@example\.com the owner\?/);
    await dialog.getByRole("button", { name: "Hand over" }).click();
    const rows = dialog.getByTestId("member");
    await waitForText(rows.first(), /team-editor@example\.com\s*since .*Owner/);
    await waitForText(rows.filter({ hasText: "team-owner@example.com" }), /Admin/);
    assert.equal(await dialog.getByRole("button", { name: /the owner$/ }).count(), 0, "no hand-over left to offer");
    await screenshot(ownerPage, "members-handed-over");
    await ownerPage.keyboard.press("Escape");
    await waitForText(card, /Admin/);
    assert.equal(await card.getByRole("button", { name: "Delete Handoff" }).count(), 0, "the old owner no longer deletes it");
  });
});
