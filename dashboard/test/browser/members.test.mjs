// A site shared with a viewer, in Chromium against the real daemon: the owner invites an address, the invited
// account accepts with the link's token, and then sees the site among its websites marked Viewer, reads its
// dashboard and events, and finds no control its role may not use (no delete, members, share, create or edit);
// the owner, on the same screens, has each of them, so the checks can tell the two apart.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, screenshot, startDaemon, waitForText } from "./helpers.mjs";
import { ownerWithSites, track } from "./site-owner.mjs";

describe("a viewer's controls", () => {
  let daemon, browser, ownerPage, viewerPage, site;

  before(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    const open = async () => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: daemon.url });
      const page = await context.newPage();
      page.on("pageerror", (e) => console.error("page error:", e));
      return page;
    };
    [ownerPage, viewerPage] = [await open(), await open()];
    const owner = await ownerWithSites(ownerPage, daemon.url, "team-owner@example.com", [{ name: "Team", domain: "team.example.com", trackingLevel: "enhanced" }]);
    [site] = owner.sites;
    await owner.api("POST", `/api/websites/${site.id}/event-definitions`, { name: "signup", displayName: "Signup", eventType: "custom" });
    await track(daemon.url, { tracking_key: site.trackingKey, session_id: "team-visit-1", url: "https://team.example.com/" }, "198.51.100.7");
    const invited = await owner.api("POST", `/api/websites/${site.id}/members`, { email: "team-viewer@example.com", role: "viewer" });
    const viewer = await ownerWithSites(viewerPage, daemon.url, "team-viewer@example.com", []);
    const token = new URLSearchParams(invited.link.split("#")[1]).get("token");
    const accepted = await viewer.api("POST", `/api/user/invitations/${invited.id}/accept`, { token });
    assert.equal(accepted.role, "viewer");
  });

  after(async () => {
    await browser?.close();
    await daemon?.stop();
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
});
