// Generated from the daemon's OpenAPI document by `npm run contract` (dashboard/contract.mjs): do not edit.
// The Rust routes and types are the source; src/api/types.ts names what the dashboard uses.

export interface paths {
    "/api/analytics/advanced": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["advancedAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/ai-intent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["aiIntent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/customer-journeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["customerJourneys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/heatmap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["heatmap"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/heatmap/page": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The page's latest recorded snapshot: visitor-controlled content, which the dashboard rebuilds only in a
         *     frame sandboxed without scripts (API.md).
         */
        get: operations["heatmapPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/journeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["journeyPaths"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/live-visitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["liveVisitors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["streamSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/sessions/{id}/journey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["sessionJourney"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/urls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["heatmapUrls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The live stream. EventSource cannot send headers, so a browser opens it with `?ticket=` (single use,
         *     from POST /api/dashboard/live/ticket); other clients may send the bearer token. The stream ends when
         *     the credential expires or its sign-in is revoked, and the client reconnects with a new ticket.
         */
        get: operations["liveStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/live/ticket": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A single-use ticket that opens the live stream (EventSource cannot send the bearer header). */
        post: operations["liveTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["overview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/recent-activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["recentActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["sitePeriods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["timeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/event": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["plausibleEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/export/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["exportRecent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/funnels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listFunnels"];
        put?: never;
        post: operations["createFunnel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/funnels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getFunnel"];
        put: operations["updateFunnel"];
        post?: never;
        delete: operations["deleteFunnel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/funnels/{id}/drop-offs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["funnelDropOffs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/interactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["interactions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A sign-in, or `{twoFactorRequired: true}` when the password is right and a second factor is needed (the
         *     client then sends the same body with `code`). Sign-ins are recorded while login notifications are on.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ends the sign-in of the refresh token in the body, or else of the bearer token; 204 either way once done. */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document. */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/privacy/audit-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["privacyAuditLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/privacy/consent-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["consentLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/privacy/delete-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["deleteData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/privacy/delete-visitor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["privacyDeleteVisitor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/privacy/export-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["privacyExportData"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/privacy/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["retention"];
        put: operations["updateRetention"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/privacy/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["privacySettings"];
        put: operations["updatePrivacySettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/privacy/visitor-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["privacyVisitorData"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new access token and a new refresh token; the presented refresh token is used up. */
        post: operations["refreshTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/registration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the Sign Up tab can create an account here. */
        get: operations["registration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["uploadReplay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/replays/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getReplay"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/replays/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * `{"events": [...]}` streamed one stored chunk at a time: the chunks' event arrays are joined as bytes, never
         *     parsed, so a recording costs the daemon one inflated chunk (at most 8 MiB) per reader at a time, not its
         *     whole size as a JSON tree. The channel holds one piece: a slow reader slows the inflating.
         */
        get: operations["replayEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["umamiSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/share/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the link shows: its site, its name and fixed filters, and whether a password is needed first. */
        get: operations["shareInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/share/{slug}/breakdown/{dimension}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["shareBreakdown"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/share/{slug}/countries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["shareCountries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/share/{slug}/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["shareOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/share/{slug}/referrers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["shareReferrers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/share/{slug}/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Opens a password link for an hour: the token goes in `Authorization: Bearer` on the link's reads, and opens
         *     nothing else. Wrong passwords are limited per client network and per link, as logins are.
         */
        post: operations["shareSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/share/{slug}/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["shareTimeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/share/{slug}/traffic-sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["shareTrafficSources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/track": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["track"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/track/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["scriptConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["currentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deletes the account with its websites and all their data, after checking the password. */
        delete: operations["deleteAccount"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's keys, newest first, without their secrets. */
        get: operations["listApiKeys"];
        put?: never;
        /** Creates a key; the answer holds its secret, shown this once. */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revokes a key at once: the next request with it is a 401, on every daemon. */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Changes the email after checking the current password. Another address is unconfirmed (no report or alert
         *     goes to it) until the link mailed to it is followed; 429 when the account's verification mails of the hour
         *     are used up.
         */
        put: operations["changeEmail"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/email/verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mails a new verification link to the account's unconfirmed address (earlier links stop working): 400
         *     without email configured, 409 when the address is confirmed already, 429 past 5 mails an hour, 503 when
         *     the mail server cannot be reached.
         */
        post: operations["resendEmailVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/email/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirms an address with the token of the link mailed to it (no sign-in needed: the link may be opened on
         *     another device). A token unknown, used, replaced by a newer link or an email change, or older than 24 hours
         *     is a 400.
         */
        post: operations["confirmEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's data as one JSON download. */
        get: operations["exportAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The open invitations to the signed-in account's address, once that address is confirmed (until then an
         *     invitation is accepted from its link).
         */
        get: operations["listInvitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/invitations/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accepts an invitation to the signed-in account's address; with an unconfirmed address, only with the
         *     link's `token`. Another account's invitation, a used, withdrawn or expired one is not found. Answers the
         *     site with the account's role on it.
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["updateNotifications"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Changes the password: every other sign-in ends, and the caller gets a new token pair. */
        put: operations["changePassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["updateProfile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/security": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Session timeout (minutes, 5 to 480; text that is not a number falls back to 30, as the spec's input does)
         *     and login notifications.
         */
        put: operations["updateSecurity"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Profile, notifications, security settings and recent sign-ins. */
        get: operations["userSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/two-factor/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turns two-factor sign-in off with the current password and a code from the app or a recovery code. */
        post: operations["twoFactorDisable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/two-factor/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirms enrolment with the current password and a code; other sign-ins end. Answers the recovery codes, once. */
        post: operations["twoFactorEnable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/two-factor/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new pending TOTP secret with its otpauth URI and QR code, once the current password is confirmed. */
        post: operations["twoFactorSetup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A Stats API v2 query: `{site_id, metrics, date_range, dimensions?, filters?, order_by?, include?,
         *     pagination?}` (API.md "Stats API v2").
         */
        post: operations["statsQuery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listWebsites"];
        put?: never;
        post: operations["createWebsite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getWebsite"];
        put: operations["updateWebsite"];
        post?: never;
        delete: operations["deleteWebsite"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/annotations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The site's annotations on the range's days, by day. */
        get: operations["listAnnotations"];
        put?: never;
        /** Writes an annotation (a sign-in or a `write` API key). */
        post: operations["createAnnotation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/annotations/{annotationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Changes an annotation's day and text. */
        put: operations["updateAnnotation"];
        post?: never;
        /** Deletes an annotation. */
        delete: operations["deleteAnnotation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/breakdown/{dimension}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Any rollup dimension of a site over a range: `{dimension, measure, rows:[{value, count}]}`, most first. */
        get: operations["breakdown"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/conversions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["conversions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/countries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["countries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/event-definitions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listEventDefinitions"];
        put?: never;
        post: operations["createEventDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/event-definitions/{definitionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["updateEventDefinition"];
        post?: never;
        delete: operations["deleteEventDefinition"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/events/property-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The property keys the site's events of a period carry, among what `filters` admits (the Event Properties card
         *     names one event with `event:name`), most carried first: what a `prop:<key>` breakdown can take.
         */
        get: operations["eventPropertyKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/events/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["eventsSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["exportWebsite"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/identified-visitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["identifiedVisitors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["importHistory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraws an open invitation (admin and up): its link stops working at once. */
        delete: operations["withdrawInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The site's owner and members with their roles, and its open invitations (admin and up). */
        get: operations["listMembers"];
        put?: never;
        /**
         * Invites an address with a role (admin and up). With email configured the link is mailed; otherwise the
         *     answer carries it, shown this once, for the inviter to pass on. It works for 7 days, once, and only for an
         *     account with that address.
         */
        post: operations["inviteMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/members/me/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's own emails of the site (any role): for a member its choice on the site, off until it turns
         *     them on; for the owner the account's Notifications switches (`followsAccount`).
         */
        get: operations["getOwnSiteEmails"];
        /**
         * Turns the calling member's weekly report and traffic alerts of the site on or off (any role; a field left
         *     out keeps its value). They go only to a confirmed address. The owner's follow the account's switches
         *     (`PUT /api/user/notifications`): 409 here.
         */
        put: operations["setOwnSiteEmails"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/members/{memberId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Changes a member's role (admin and up): viewer, editor or admin. Nobody changes their own role, and the
         *     owner's is nobody's to change.
         */
        put: operations["updateMember"];
        post?: never;
        /** Removes a member (admin and up); its next request to the site is a 404. The owner cannot be removed. */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listOrganizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/organizations/{orgId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["updateOrganization"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/owner": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hands the site over to one of its admins (owner only): the admin becomes the owner, the caller an admin
         *     member. Recorded in the site's audit log. Any other member is a 409 (make them an admin first).
         */
        post: operations["handOverWebsite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/referrers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["referrers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/revenue/{dimension}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The revenue of a site's conversions with a value by any breakdown dimension (`source`, `goal`, ...). */
        get: operations["revenue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/segments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The site's saved segments, oldest first. */
        get: operations["listSegments"];
        put?: never;
        /** Saves a segment. */
        post: operations["createSegment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/segments/{segmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Renames a segment and replaces its filters. */
        put: operations["updateSegment"];
        post?: never;
        /** Deletes a segment. */
        delete: operations["deleteSegment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/session-replays": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listReplays"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/session-replays/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["replayStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/shared-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The site's share links, newest first: never a password, only whether one is set. */
        get: operations["listSharedLinks"];
        put?: never;
        /** Creates a share link of the site. */
        post: operations["createSharedLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/shared-links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deletes a share link: its page, reads and sessions end at once. */
        delete: operations["deleteSharedLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{id}/traffic-sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["trafficSources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goatcounter/{trackingKey}/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["goatcounterCount"];
        put?: never;
        post: operations["goatcounterBeacon"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Accepting an invitation: the token of its link, needed while the account's address is not confirmed. */
        AcceptRequest: {
            token?: string | null;
        };
        AccountDeletion: {
            password: string;
        };
        /** @description Everything the Settings screen shows. */
        AccountSettings: {
            profile: components["schemas"]["Profile"];
            notifications: components["schemas"]["Notifications"];
            security: components["schemas"]["Security"];
            recentSignIns: components["schemas"]["SignIn"][];
        };
        /** @description What a script needs of an active definition. */
        ActiveDefinition: {
            /** Format: int64 */
            id: number;
            name: string;
            eventType: string;
            selector: string;
            isConversion: boolean;
            conversionValue?: string | null;
        };
        /** @description An item of the live feed (spec part 1 §3 "Active session", plus where the visitor is). */
        ActiveSession: {
            /** Format: int64 */
            id: number;
            sessionId: string;
            ipAddress?: string | null;
            /** Format: date-time */
            lastSeen: string;
            currentPage: string;
            country: string;
            device: string;
            browser: string;
        };
        /** @description `GET /api/dashboard/recent-activity` item. */
        ActivityEvent: {
            /** Format: int64 */
            id: number;
            /** @description `pageview`, `custom`, `conversion`, `outbound` or `download`. */
            type: string;
            /** @description The event or goal name ('' for page views and unnamed outbound links and downloads). */
            name: string;
            url: string;
            sessionId: string;
            country: string;
            /**
             * Format: double
             * @description The conversion value, null for everything else and for conversions without one.
             */
            value?: number | null;
            /** Format: date-time */
            timestamp: string;
        };
        /** @description `GET /api/analytics/advanced` (spec part 2 §3 "Advanced analytics response"). */
        Advanced: {
            /** Format: int64 */
            totalVisitors: number;
            /** Format: int64 */
            highIntentVisitors: number;
            /** Format: double */
            conversionRate: number;
            /** Format: double */
            averageSessionDuration: number;
            /** Format: double */
            bounceRate: number;
            realTimeMetrics: components["schemas"]["RealTimeMetrics"];
            topPages: components["schemas"]["TopPage"][];
            visitorSegments: components["schemas"]["Segment"][];
            /**
             * Format: int64
             * @description Visits the intent figures were scored over, and where the model's weights came from.
             */
            intentAnalyzed: number;
            intentModel: string;
        };
        /**
         * @description `GET /api/analytics/ai-intent` (spec part 2 §3 "AI intent response", plus patterns, reasons, the model
         *     and recommendations).
         */
        AiIntent: {
            summary: components["schemas"]["IntentSummary"];
            distribution: components["schemas"]["Distribution"];
            patterns: components["schemas"]["Pattern"][];
            topIntentSessions: components["schemas"]["IntentSession"][];
            recommendations: components["schemas"]["Recommendation"][];
            model: components["schemas"]["ModelInfo"];
        };
        /** @description A stored annotation. */
        Annotation: {
            /** Format: int64 */
            id: number;
            /** @description The day it marks, YYYY-MM-DD. */
            date: string;
            text: string;
            source: components["schemas"]["AnnotationSource"];
            /**
             * @description The email of the account that wrote it; null for tracker's own and the operator's, or once that account
             *     is gone.
             */
            createdBy?: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @description What a chart needs of an annotation (the time series' `annotations`). */
        AnnotationMark: {
            /** Format: int64 */
            id: number;
            /** @description The day it marks, YYYY-MM-DD. */
            date: string;
            text: string;
        };
        /** @description The body of `POST` and `PUT /api/websites/{id}/annotations`. */
        AnnotationRequest: {
            /**
             * @description The day it marks, YYYY-MM-DD.
             * @example 2026-11-20
             */
            date: string;
            /** @description Trimmed, 1 to 280 characters, no control characters. */
            text: string;
        };
        /**
         * @description Who wrote an annotation.
         * @enum {string}
         */
        AnnotationSource: "user" | "cli" | "spike";
        /** @description An API key as listed: never its secret. */
        ApiKey: {
            /** Format: int64 */
            id: number;
            name: string;
            scope: components["schemas"]["ApiKeyScope"];
            /** @description The secret's first characters (`trk_` and six more), to tell keys apart. */
            prefix: string;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the key last opened a request (to the minute), null if never.
             */
            lastUsedAt?: string | null;
        };
        /** @description A key to create: its name (1 to 100 characters) and scope. */
        ApiKeyRequest: {
            /** @description Trimmed, 1 to 100 characters, no control characters. */
            name: string;
            scope: components["schemas"]["ApiKeyScope"];
        };
        /**
         * @description What a key may do: `read` calls GET routes (and the read-only POSTs), `write` everything a signed-in user
         *     can but the account's security.
         * @enum {string}
         */
        ApiKeyScope: "read" | "write";
        /** @description `GET /api/privacy/audit-logs` item. */
        AuditEntry: {
            /** Format: int64 */
            id: number;
            /** Format: date-time */
            timestamp: string;
            /** @description The account's email at the time, or `cli`. */
            actor: string;
            action: string;
            detail: unknown;
        };
        /** @description One page of a site's audit log, newest first, and how many entries there are in all. */
        AuditPage: {
            entries: components["schemas"]["AuditEntry"][];
            /** Format: int64 */
            total: number;
        };
        /** @description The answer to a successful login, registration or password change. */
        AuthSession: {
            accessToken: string;
            refreshToken: string;
            user: components["schemas"]["User"];
        };
        /** @description A row that could not be read: its file, its line (1 = the header) and why. */
        BadRow: {
            file: string;
            /** Format: int64 */
            line: number;
            reason: string;
        };
        /** @description A breakdown's answer: the dimension, what `count` counts, and the rows, most first. */
        Breakdown: {
            dimension: string;
            /** @description `visits`, `pageviews` or `events`. */
            measure: string;
            rows: components["schemas"]["BreakdownRow"][];
        };
        /**
         * @description A breakdown's row: a value ('' = unknown, Direct for referrers and sources) and its count; with `compare=`,
         *     the value's count over the compared period too (0 when it had none).
         */
        BreakdownRow: {
            value: string;
            /** Format: int64 */
            count: number;
            /** Format: int64 */
            previous?: number | null;
        };
        /** @description Clicks in a 10 px cell; x, y are the cell's centre (x scaled to the reference width). */
        ClickCell: {
            /** Format: int64 */
            x: number;
            /** Format: int64 */
            y: number;
            /** Format: int64 */
            count: number;
        };
        /**
         * @description A click as sent: page-relative position, the target's selector, where inside the target (fractions of
         *     its box, 0..1) and when (Unix ms).
         */
        ClickIn: {
            /** Format: double */
            x: number;
            /** Format: double */
            y: number;
            selector?: string | null;
            /** Format: double */
            ox?: number | null;
            /** Format: double */
            oy?: number | null;
            /** Format: int64 */
            t?: number | null;
        };
        /** @description The choice itself (spec part 2 §3 consentData). */
        ConsentData: {
            analytics: boolean;
            marketing: boolean;
        };
        /** @description `GET /api/privacy/consent-logs` item. */
        ConsentLog: {
            /** Format: int64 */
            id: number;
            consentType: components["schemas"]["ConsentType"];
            /** Format: date-time */
            timestamp: string;
            ipAddress?: string | null;
            sessionId: string;
            consentData: components["schemas"]["ConsentData"];
        };
        /**
         * @description What a visitor agreed to.
         * @enum {string}
         */
        ConsentType: "accepted" | "declined" | "partial";
        Conversion: {
            /** Format: int64 */
            id: number;
            goalName: string;
            /**
             * Format: double
             * @description The conversion's value, null when the hit carried none.
             */
            value?: number | null;
            /** @description ISO 4217 code sent with the value, if any. */
            currency?: string | null;
            /** Format: date-time */
            timestamp: string;
        };
        /** @description `GET /api/websites/{id}/conversions` (spec part 1 §3 "Conversions response"). */
        Conversions: {
            conversions: components["schemas"]["Conversion"][];
            /**
             * Format: double
             * @description Visits with at least one conversion per 100 visits of the range, one decimal.
             */
            conversionRate: number;
        };
        /** @description `GET /api/websites/{id}/countries` item (ISO 3166 alpha-2, empty when unknown). */
        CountryCount: {
            country: string;
            /** Format: int64 */
            count: number;
        };
        CreateWebsite: {
            name?: string | null;
            domain?: string | null;
            trackingLevel?: string | null;
        };
        /** @description A key just created, with its secret: the only answer that ever holds it. */
        CreatedApiKey: components["schemas"]["ApiKey"] & {
            /** @description The key itself, to send as `Authorization: Bearer <secret>`; shown this once. */
            secret: string;
        };
        /** @description A new invitation: mailed to the address when email is configured, else its link for the inviter to pass on. */
        CreatedInvitation: components["schemas"]["Invitation"] & {
            /** @description Whether the link was mailed to the address. */
            emailed: boolean;
            /** @description The link to accept it (only when it was not mailed): shown this once, for the inviter to copy. */
            link?: string | null;
        };
        Credentials: {
            email: string;
            password: string;
            /** @description The second factor at login (a TOTP code or a recovery code), when the account has it on. */
            code?: string | null;
        };
        /**
         * @description What a visitor is doing now: the page they are on and, when their latest hit was not a page view, what it
         *     was ("" after a page view: the screen then shows "Viewing: {page}").
         */
        CurrentActivity: {
            /** @description The latest hit is under a minute old. */
            isActive: boolean;
            activity: string;
            currentPage: string;
        };
        /** @description The signed-in account, as `GET /api/user` answers it. */
        CurrentUser: components["schemas"]["User"] & {
            /**
             * @description Whether reports and alerts may go to the address: it was confirmed by a mailed link (or vouched for by
             *     the operator, or the account is older than confirmation).
             */
            emailVerified: boolean;
        };
        /** @description One visit as a journey (spec §3 "Customer journey", plus where and when). */
        CustomerJourney: {
            sessionId: string;
            websiteId: components["schemas"]["i64"];
            /** Format: date-time */
            startedAt: string;
            /**
             * Format: int64
             * @description Page views and events of the visit.
             */
            touchpoints: number;
            /** Format: int64 */
            conversionEvents: number;
            /**
             * Format: int64
             * @description Seconds from the first to the last hit.
             */
            totalDuration: number;
            /**
             * Format: int32
             * @description 0-100: the site's intent model's conversion probability for the visit (`IntentModel::score`).
             */
            journeyScore: number;
            /** @description The visit is over (idle for [`JOURNEY_IDLE_MS`]). */
            isCompleted: boolean;
            visitorInfo: components["schemas"]["VisitorInfo"];
            steps: components["schemas"]["JourneyStep"][];
        };
        /** @description The answer of `GET /api/analytics/customer-journeys`. */
        CustomerJourneys: {
            summary: components["schemas"]["JourneySummary"];
            journeys: components["schemas"]["CustomerJourney"][];
        };
        /** @description How often a definition's event (its `name`) fired over the range. */
        DefinitionTriggers: {
            /** Format: int64 */
            id: number;
            /** Format: int64 */
            count: number;
        };
        DeleteDataRequest: {
            /** @description A number or a numeric string. */
            websiteId?: unknown;
            dataType?: string | null;
        };
        /** @description What a deletion removed: the total and the rows per table. */
        DeleteDataResponse: {
            /** Format: int64 */
            recordsDeleted: number;
            deleted: components["schemas"]["DeletionReport"];
        };
        DeleteVisitorBody: {
            /** Format: int64 */
            websiteId?: number | null;
            visitorId?: string | null;
        };
        /** @description Exact counts of what a deletion removed, per table. */
        DeletionReport: {
            /**
             * Format: int64
             * @description Rows of `events` that were page views.
             */
            pageviews: number;
            /**
             * Format: int64
             * @description Other rows of `events`.
             */
            events: number;
            /**
             * Format: int64
             * @description Rows of `sessions` (visits left without any page view or event, or all of them for `all`).
             */
            sessions: number;
            /**
             * Format: int64
             * @description Rollup rows removed (`all` without cut-off) or rebuilt (otherwise), in the engine's own rollup layout,
             *     so the two engines give different numbers for the same data: SQLite counts its hourly and daily rows
             *     (rebuilt: of the whole days touched), a cluster its hourly (dimension, hour, value) keys with a non-zero
             *     count (rebuilt: of the hours it had rolled up).
             */
            rollupRows: number;
        };
        /** @description Shares of the analysed visits in percent, one decimal. */
        Distribution: {
            /** Format: double */
            high: number;
            /** Format: double */
            medium: number;
            /** Format: double */
            low: number;
        };
        /** @description `{"ok": true}`: the answer of calls that only say they are done. */
        Done: {
            ok: boolean;
        };
        /** @description A visit that dropped off, with what its links need. */
        DropOffVisit: {
            /**
             * Format: int64
             * @description The session's id (as the visitor stream's journey and the visit detail take it).
             */
            id: number;
            /** @description The client's session id. */
            sessionId: string;
            /** Format: date-time */
            startedAt: string;
            /**
             * Format: int64
             * @description Seconds from the first to the last hit.
             */
            duration: number;
            /** Format: int64 */
            pageViews: number;
            /** @description The last page viewed. */
            exitPage: string;
            country: string;
            device: string;
            /**
             * Format: int64
             * @description The visit's recording, when one exists.
             */
            replayId?: number | null;
        };
        /**
         * @description Clicks on one element at about one place inside it. The panel puts them at `offsetX`, `offsetY` of the
         *     element's box when `selector` resolves in the rendered page, else at `pageX`, `pageY` (fractions of the
         *     document's width and height, averaged over the group). Offsets are null for clicks sent without them.
         */
        ElementClick: {
            selector: string;
            /** Format: double */
            offsetX?: number | null;
            /** Format: double */
            offsetY?: number | null;
            /** Format: double */
            pageX: number;
            /** Format: double */
            pageY: number;
            /** Format: int64 */
            count: number;
        };
        /** @description The account's email after a change or a confirmation, and whether it is confirmed. */
        EmailAnswer: {
            email: string;
            emailVerified: boolean;
        };
        EmailChange: {
            newEmail: string;
            currentPassword: string;
        };
        /** @description The token of a verification link (the part after `#token=`). */
        EmailConfirmation: {
            token: string;
        };
        /** @description The body of every error answer: `{"error":{"message":...}}`. */
        ErrorBody: {
            error: components["schemas"]["ErrorMessage"];
        };
        /** @description What went wrong, for a person to read; 5xx answers say only "internal server error". */
        ErrorMessage: {
            message: string;
        };
        EventCount: {
            name: string;
            /** Format: int64 */
            count: number;
        };
        /** @description An event definition (spec part 2 §3). */
        EventDefinition: {
            /** Format: int64 */
            id: number;
            name: string;
            displayName: string;
            description: string;
            eventType: string;
            selector: string;
            isConversion: boolean;
            /** @description Numeric text such as "49.99", or null. */
            conversionValue?: string | null;
            isActive: boolean;
            /** Format: date-time */
            createdAt: string;
        };
        /** @description `GET /api/websites/{id}/events/summary` (spec part 2 §3). */
        EventSummary: {
            /**
             * Format: int64
             * @description Custom events, outbound clicks, downloads and conversions.
             */
            totalEvents: number;
            /**
             * Format: int64
             * @description Distinct event names.
             */
            uniqueEvents: number;
            /** Format: int64 */
            conversionEvents: number;
            topEvents: components["schemas"]["EventCount"][];
            /** @description Every definition of the site with how often its event fired over the range (0 when never). */
            definitionTriggers: components["schemas"]["DefinitionTriggers"][];
        };
        Evidence: {
            label: string;
            value: string;
        };
        /** @description One exported row (JSON field names; CSV uses [`COLUMNS`]). */
        ExportRow: {
            timestamp: string;
            type: string;
            name: string;
            url: string;
            path: string;
            referrer: string;
            sessionId: string;
            country: string;
            device: string;
            browser: string;
            os: string;
            utmSource: string;
            utmMedium: string;
            utmCampaign: string;
            properties?: unknown;
        };
        /**
         * @description A form field's focus, blur or change: the form's and the field's selectors, whether the field then held
         *     a value, and when. Never the value.
         */
        FieldIn: {
            form?: string | null;
            field: string;
            /** @description "focus", "blur" or "change". */
            event: string;
            filled?: boolean;
            /** Format: int64 */
            t?: number | null;
        };
        /**
         * @description A form field (its selector, and its form's): visits that focused or changed it, visits where it ended
         *     filled, and visits that left it as the last field they touched of a form they never submitted.
         */
        FormField: {
            element: string;
            /** @description The form's selector, empty for a field outside any form. */
            form: string;
            /** Format: int64 */
            interactions: number;
            /** Format: int64 */
            completions: number;
            /** Format: int64 */
            dropOffs: number;
            /**
             * Format: double
             * @description drop_offs of interactions, in percent.
             */
            dropOffRate: number;
        };
        /** @description A funnel with its figures for the requested range (spec §3 "Funnel"). */
        Funnel: {
            /** Format: int64 */
            id: number;
            name: string;
            websiteId: components["schemas"]["i64"];
            website: components["schemas"]["FunnelWebsite"];
            status: string;
            /** Format: date-time */
            createdAt: string;
            steps: components["schemas"]["FunnelStep"][];
            /**
             * Format: int64
             * @description Visits that reached step 1.
             */
            totalVisitors: number;
            /**
             * Format: int64
             * @description Visits that reached the last step.
             */
            totalConversions: number;
            /**
             * Format: double
             * @description total_conversions / total_visitors, in percent.
             */
            overallConversionRate: number;
            /**
             * Format: double
             * @description The same figure under the spec's second name.
             */
            conversionRate: number;
            /**
             * @description The figures are not counted yet (all 0): an edit of the steps or site answers before counting the
             *     range's raw events again, which the next list or read does.
             */
            figuresPending: boolean;
        };
        /**
         * @description The answer of `GET /api/funnels/{id}/drop-offs`: per step but the last, the visits that reached it and
         *     not the next step, newest first.
         */
        FunnelDropOffs: {
            /** Format: int64 */
            funnelId: number;
            websiteId: components["schemas"]["i64"];
            steps: components["schemas"]["StepDropOffs"][];
        };
        /**
         * @description The body of `POST /api/funnels` and `PUT /api/funnels/{id}` (on PUT an absent field keeps its value).
         *     `websiteId` may be a number or numeric text.
         */
        FunnelInput: {
            name?: string | null;
            websiteId?: unknown;
            steps?: components["schemas"]["StepInput"][] | null;
            status?: string | null;
        };
        /** @description One step with its figures (spec §3 "Funnel step"). */
        FunnelStep: {
            name: string;
            url: string;
            eventName?: string | null;
            /**
             * Format: int64
             * @description Visits that reached this step (after the steps before it, in order).
             */
            visitors: number;
            /**
             * Format: int64
             * @description Of those, the visits that went on to the next step (the last step: all of them).
             */
            conversions: number;
            /**
             * Format: double
             * @description conversions / visitors in percent (0 without visitors).
             */
            conversionRate: number;
            /**
             * Format: double
             * @description 100 - conversion_rate (0 without visitors).
             */
            dropOffRate: number;
        };
        /** @description The site a funnel is on, as the list shows it. */
        FunnelWebsite: {
            name: string;
        };
        /** @description The admin member to make the site's owner. */
        HandOverRequest: {
            /**
             * Format: int64
             * @description The member's account id (`memberId` in the members' list); its role must be admin.
             */
            memberId: number;
        };
        /** @description `GET /api/analytics/heatmap` (spec part 2 §3), plus the reference width of the coordinates. */
        Heatmap: {
            clicks: components["schemas"]["ClickCell"][];
            /** @description The clicks by element, for drawing them over the page rendered from a recording (API.md). */
            elementClicks: components["schemas"]["ElementClick"][];
            scrollDepth: components["schemas"]["ScrollReach"][];
            mouseMovements: components["schemas"]["Position"][];
            pageMetrics: components["schemas"]["PageMetrics"];
            formInteractions: components["schemas"]["FormField"][];
            /** Format: int64 */
            referenceWidth: number;
            /**
             * Format: int64
             * @description The page's height at the reference width (the tallest seen), 0 without interactions: the size of
             *     the canvas the heat is drawn on.
             */
            referenceHeight: number;
        };
        /** @description `GET /api/websites/{id}/identified-visitors` item. */
        IdentifiedVisitor: {
            /** Format: int64 */
            id: number;
            companyName: string;
            /**
             * Format: int64
             * @description 0 to 100: page views (10 each, at most 50), other events (5 each, at most 20), a conversion (30).
             */
            leadScore: number;
            industry: string;
            country: string;
            city: string;
            /** Format: date-time */
            identifiedAt: string;
        };
        /** @description Rows an import left out on purpose, for one reason. */
        IgnoredRows: {
            reason: string;
            /** Format: int64 */
            rows: number;
        };
        /** @description What an import stored. */
        ImportReport: {
            /** Format: int64 */
            id: number;
            source: string;
            fileName: string;
            /**
             * Format: int64
             * @description Rows read and imported.
             */
            rows: number;
            /**
             * Format: int64
             * @description Rows left out on purpose (bots as the source flagged them, rows of things tracker does not count).
             */
            ignored: number;
            /** @description Why, with how many rows each. */
            ignoredReasons: components["schemas"]["IgnoredRows"][];
            /**
             * Format: int64
             * @description Rows that could not be read (only with `skip_bad_rows`; otherwise the import fails).
             */
            badRows: number;
            /** @description The first of them (at most [`BadRows::KEPT`]). */
            firstBadRows: components["schemas"]["BadRow"][];
            /** @description First and last imported day, YYYY-MM-DD (UTC). */
            firstDay: string;
            lastDay: string;
            /** Format: int64 */
            pageviews: number;
            /** Format: int64 */
            visits: number;
        };
        /** @description Imported history within a range, as the overview marks it: which tools, and the days it covers there. */
        ImportedHistory: {
            sources: string[];
            /** @description First and last imported day inside the range, YYYY-MM-DD. */
            from: string;
            to: string;
        };
        IntentSession: {
            sessionId: string;
            /** Format: int64 */
            intentScore: number;
            /**
             * Format: double
             * @description The model's conversion probability for the visit in percent, one decimal.
             */
            conversionProbability: number;
            /** @description high, medium or low. */
            category: string;
            pattern: string;
            signals: components["schemas"]["Signals"];
            keyPage?: string | null;
            raisedBy: components["schemas"]["Reason"][];
            loweredBy: components["schemas"]["Reason"][];
        };
        IntentSummary: {
            /** Format: int64 */
            totalAnalyzed: number;
            /** Format: int64 */
            highIntent: number;
            /** Format: int64 */
            mediumIntent: number;
            /** Format: int64 */
            lowIntent: number;
            /** Format: double */
            averageIntentScore: number;
        };
        /** @description The body of `POST /api/interactions`. */
        InteractionsRequest: {
            tracking_key: string;
            session_id: string;
            url: string;
            viewport: components["schemas"]["Size"];
            page: components["schemas"]["Size"];
            clicks?: components["schemas"]["ClickIn"][];
            moves?: components["schemas"]["MoveIn"][];
            submits?: components["schemas"]["SubmitIn"][];
            fields?: components["schemas"]["FieldIn"][];
            /** Format: double */
            scrollDepth?: number | null;
        };
        /** @description An invitation not yet accepted. */
        Invitation: {
            /** Format: int64 */
            id: number;
            websiteId: components["schemas"]["i64"];
            websiteName: string;
            websiteDomain: string;
            email: string;
            role: components["schemas"]["Role"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string;
        };
        /** @description An invitation to send: the address and the role (viewer, editor or admin). */
        InviteRequest: {
            email: string;
            /** @description viewer, editor or admin. */
            role: string;
        };
        /** @description An event of a journey. */
        JourneyEvent: {
            /** @description pageview is never listed here; custom, conversion, outbound, download. */
            kind: string;
            name: string;
            /** @description How the stream describes it ("Converted: purchase"). */
            label: string;
            /** Format: date-time */
            at: string;
            /** Format: double */
            value?: number | null;
            currency?: string | null;
        };
        /** @description A sequence of pages from entry to exit and the visits that took it. */
        JourneyPath: {
            /** @description Pages in order (repeats of the same page in a row folded); cut at [`PATH_DEPTH`] with "…". */
            pages: string[];
            /** Format: int64 */
            sessions: number;
            /** Format: int64 */
            conversions: number;
            /**
             * Format: double
             * @description conversions / sessions in percent.
             */
            conversionRate: number;
        };
        /** @description The answer of `GET /api/analytics/journeys`: the most common paths of the period. */
        JourneyPaths: {
            /**
             * Format: int64
             * @description Visits of the period with at least one page view.
             */
            totalSessions: number;
            paths: components["schemas"]["JourneyPath"][];
        };
        /** @description One touchpoint of a journey. */
        JourneyStep: {
            /** @description The page's path. */
            page: string;
            /**
             * Format: int64
             * @description Seconds until the next touchpoint (the last: until the visit's last hit).
             */
            duration: number;
            /** @description pageview, custom, conversion, outbound or download. */
            eventType: string;
            /** @description The event's name ('' for page views). */
            name: string;
        };
        /** @description Totals over every journey of the period and filter (not only the listed ones). */
        JourneySummary: {
            /** Format: int64 */
            totalJourneys: number;
            /**
             * Format: double
             * @description Seconds.
             */
            averageDuration: number;
            /** Format: double */
            averageTouchpoints: number;
            /**
             * Format: double
             * @description Percent of the journeys with a conversion.
             */
            conversionRate: number;
        };
        /** @description A page that precedes conversions on the site, with the numbers that made it one. */
        KeyPage: {
            page: string;
            /**
             * Format: int64
             * @description Visits that viewed it (before converting, for converted ones).
             */
            sessions: number;
            /** Format: int64 */
            conversions: number;
            /**
             * Format: double
             * @description Percent, one decimal.
             */
            conversionRate: number;
            /**
             * Format: double
             * @description Its conversion rate over the site's.
             */
            lift: number;
        };
        /** @description A page of the live summary and how many active visitors (visits) are on it. */
        LivePage: {
            page: string;
            /** Format: int64 */
            visitors: number;
        };
        /** @description `GET /api/analytics/live-visitors` (spec part 2 §3, "Live visitors summary"). */
        LiveVisitors: {
            /**
             * Format: int64
             * @description Active visitors: visits seen in the last five minutes (`ACTIVE_WINDOW_MS`), the one definition every
             *     screen and the CLI count, so the figure equals the sessions listed. Distinct visitor hashes would merge
             *     people behind one address with the same browser, while the list shows each of them.
             */
            totalActiveVisitors: number;
            /**
             * Format: int64
             * @description Visitors whose first visit of the UTC day began today: first-time within the daily salt's reach.
             */
            newVisitorsToday: number;
            /**
             * Format: int64
             * @description Conversion events since the start of the UTC day.
             */
            conversionsToday: number;
            /** @description The pages active visitors are on now, most visitors first (at most five). */
            topPages: components["schemas"]["LivePage"][];
            /** @description The active sessions, most recently seen first (at most [`STREAM_LIMIT`]). */
            recentSessions: components["schemas"]["StreamSession"][];
        };
        /** @description The answer to a login: a sign-in, or (password right, two-factor on, no code given) a request for the code. */
        Login: components["schemas"]["AuthSession"] | {
            twoFactorRequired: boolean;
        };
        LogoutRequest: {
            refreshToken?: string | null;
        };
        /** @description One account with a role on a site: its owner or a member. */
        Member: {
            /** @description The member's account id (the path's `memberId`). */
            memberId: components["schemas"]["i64"];
            email: string;
            role: components["schemas"]["Role"];
            /**
             * Format: date-time
             * @description When it joined (the owner: when the site was created).
             */
            since: string;
        };
        /** @description Which of a site's emails an account gets: a member's own choice on the site, or the owner's account switches. */
        MemberEmails: {
            /** @description The site's weekly report (Mondays). */
            reports: boolean;
            /** @description The site's traffic-spike alerts (at most one every 6 hours). */
            alerts: boolean;
            /**
             * @description True for the site's owner, whose emails follow the account's Notifications switches (Weekly Reports,
             *     Real-time Alerts, `PUT /api/user/notifications`) rather than a choice per site.
             */
            followsAccount: boolean;
        };
        /** @description What to change of the caller's own emails of a site; a field left out keeps its value. */
        MemberEmailsRequest: {
            /** @description The site's weekly report. */
            reports?: boolean | null;
            /** @description The site's traffic-spike alerts. */
            alerts?: boolean | null;
        };
        /** @description How the weights were obtained, and how well they separate converters on visits the fit never saw. */
        ModelInfo: {
            /** @description `fitted` on the site's history, or `prior` weights. */
            source: string;
            /** @description Why priors are used, or what the fit was on. */
            note: string;
            /** Format: int64 */
            trainingSessions: number;
            /** Format: int64 */
            trainingConversions: number;
            /** Format: int64 */
            heldOutSessions: number;
            /** Format: int64 */
            heldOutConversions: number;
            /**
             * Format: double
             * @description Area under the ROC curve on the held-out visits (0.5 = chance, 1 = perfect); null without both
             *     converted and other held-out visits.
             */
            auc?: number | null;
            /** Format: date-time */
            fittedAt: string;
            /** Format: double */
            fitMs: number;
            /** @description Log-odds per standard deviation of each feature (per raw unit for priors). */
            weights: components["schemas"]["Weight"][];
            keyPages: components["schemas"]["KeyPage"][];
            /**
             * Format: double
             * @description Converted visits per 100 finished visits of the history, one decimal.
             */
            baseConversionRate: number;
        };
        /** @description A sampled mouse position. */
        MoveIn: {
            /** Format: double */
            x: number;
            /** Format: double */
            y: number;
        };
        /**
         * @description The body of `POST /api/websites/{id}/event-definitions`. `conversionValue` may be a number or numeric
         *     text.
         */
        NewEventDefinition: {
            name?: string | null;
            displayName?: string | null;
            description?: string | null;
            eventType?: string | null;
            selector?: string | null;
            isConversion?: boolean | null;
            conversionValue?: unknown;
            isActive?: boolean | null;
        };
        /** @description Notification preferences (spec defaults: email alerts and weekly reports on, the other two off). */
        Notifications: {
            emailAlerts: boolean;
            weeklyReports: boolean;
            realTimeAlerts: boolean;
            marketingEmails: boolean;
            /**
             * @description Whether the server can send email at all (`smtp_url` set); when not, the screen says so and the
             *     toggles are off limits. Read only.
             */
            emailConfigured: boolean;
        };
        /** @description A change of notification preferences; fields left out keep their value. */
        NotificationsUpdate: {
            emailAlerts?: boolean | null;
            weeklyReports?: boolean | null;
            realTimeAlerts?: boolean | null;
            marketingEmails?: boolean | null;
        };
        /** @description `GET /api/websites/{id}/organizations` item (spec part 2 §3). */
        OrganizationSummary: {
            /** Format: int64 */
            id: number;
            organizationName: string;
            /** @description Owner-supplied (a bare host name), else null. */
            domain?: string | null;
            /** @description Owner-supplied, else null. */
            industry?: string | null;
            /** @description Owner-supplied: enterprise, large, medium or small; else null (shown as 'other'). */
            size?: string | null;
            /** @description Country (ISO 3166 alpha-2) of the latest visit. */
            location: string;
            /** Format: int64 */
            sessionCount: number;
            /**
             * Format: int64
             * @description Percent.
             */
            confidence: number;
            /** Format: date-time */
            lastSeen: string;
        };
        /**
         * @description The body of `PUT /api/websites/{id}/organizations/{orgId}`: each field present replaces the stored one
         *     ("" clears it); absent fields keep theirs.
         */
        OrganizationUpdate: {
            domain?: string | null;
            industry?: string | null;
            size?: string | null;
        };
        /** @description `GET /api/dashboard/overview`. */
        Overview: {
            metrics: components["schemas"]["OverviewMetrics"];
            previous: components["schemas"]["PreviousMetrics"];
            topPages: components["schemas"]["PageViews"][];
            imported?: null | components["schemas"]["ImportedHistory"];
        };
        OverviewMetrics: {
            /** Format: int64 */
            totalVisitors: number;
            /** Format: int64 */
            activeSessions: number;
            /** Format: int64 */
            pageViews: number;
            /** Format: int64 */
            conversions: number;
            /**
             * Format: double
             * @description Share of visits with a single page view, in percent.
             */
            bounceRate: number;
            /**
             * Format: double
             * @description Mean visit length in seconds.
             */
            avgSessionDuration: number;
        };
        /** @description Of the visits that started in the range (as Advanced Analytics' top pages and the journeys count them). */
        PageMetrics: {
            /**
             * Format: int64
             * @description Visits that viewed the page.
             */
            totalVisitors: number;
            /**
             * Format: double
             * @description Seconds, one decimal.
             */
            averageTimeOnPage: number;
            /**
             * Format: double
             * @description Percent of visits entering on the page that viewed nothing else.
             */
            bounceRate: number;
            /**
             * Format: double
             * @description Percent of visits viewing the page that converted.
             */
            conversionRate: number;
        };
        /** @description `GET /api/analytics/heatmap/page`: the page as recorded, or null with no recording of it. */
        PageRendering: {
            snapshot?: null | components["schemas"]["PageSnapshot"];
        };
        /**
         * @description A page's rrweb full snapshot and the viewport it was recorded at. `node` is visitor-controlled content:
         *     the panel rebuilds it only in a frame sandboxed without scripts.
         */
        PageSnapshot: {
            /** Format: int64 */
            replayId: number;
            recordedAt: string;
            href: string;
            /**
             * Format: int64
             * @description Viewport width and height of the recording, CSS pixels.
             */
            width: number;
            /** Format: int64 */
            height: number;
            /** @description The serialized document (rrweb-snapshot's `serializedNodeWithId`). */
            node: Record<string, never>;
        };
        PageViews: {
            url: string;
            /** Format: int64 */
            views: number;
        };
        PasswordChange: {
            currentPassword: string;
            newPassword: string;
        };
        /** @description A password change's answer: the caller's new sign-in, and `ok`. */
        PasswordChanged: components["schemas"]["AuthSession"] & {
            ok: boolean;
        };
        Pattern: {
            /** @description ready_to_convert, researching, exploring, window_shopping. */
            pattern: string;
            /** Format: int64 */
            count: number;
            /** Format: double */
            percentage: number;
            /** Format: double */
            averageScore: number;
            /** Format: double */
            conversionRate: number;
        };
        /** @description The body of Plausible's `POST /api/event` (any content type; JSON text). */
        PlausibleEvent: {
            /** @description `pageview`, `engagement`, or a custom event's name (`n`). */
            name?: string | null;
            /** @description The page's URL (`u`). */
            url?: string | null;
            /** @description The site's domain as registered here, several separated by commas, or its tracking key (`d`). */
            domain?: string | null;
            /** @description `document.referrer` (`r`). */
            referrer?: string | null;
            /** @description Custom properties: an object, or its JSON text (`p`; the legacy script's `m`, `meta`). */
            props?: unknown;
            /** @description `{currency, amount}` (`$`): the event becomes a conversion with that value. */
            revenue?: unknown;
            /** @description Read and ignored: events never make a visit a bounce here (`i`). */
            interactive?: boolean | null;
            /**
             * Format: int64
             * @description Hash-based routing (`h`): read and ignored, the fragment is not part of a page here.
             */
            hash_mode?: number | null;
            /**
             * Format: double
             * @description An `engagement` event's deepest scroll, in percent of the page (`sd`).
             */
            scroll_depth?: number | null;
            /**
             * Format: double
             * @description An `engagement` event's engaged milliseconds (`e`): the visit is kept alive until it arrives.
             */
            engagement_time?: number | null;
            /**
             * Format: int64
             * @description The script's version (`v`), ignored.
             */
            version?: number | null;
        };
        Position: {
            /** Format: int64 */
            x: number;
            /** Format: int64 */
            y: number;
        };
        PreviousMetrics: {
            /** Format: int64 */
            totalVisitors: number;
            /** Format: int64 */
            pageViews: number;
            /** Format: int64 */
            conversions: number;
        };
        /**
         * @description `GET /api/privacy/settings` (spec part 2 §3). With `anonymize_ips` on (the default) the stored address
         *     is anonymised (last octet / last 80 bits zeroed); off, the owner keeps full addresses.
         */
        PrivacySettings: {
            gdprCompliant: boolean;
            /** @description Visitors must consent before anything beyond anonymous page counts is kept. */
            cookieConsent: boolean;
            anonymizeIPs: boolean;
            /** @description Browsers sending Do-Not-Track or Global Privacy Control are not tracked. */
            respectDoNotTrack: boolean;
            dataSubjectRights: boolean;
            dataPortability: boolean;
            dataDeletion: boolean;
            /** Format: int64 */
            dataRetentionDays: number;
            dataProcessingBasis: string;
            consentMessage: string;
            privacyPolicyUrl: string;
            /**
             * @description Recordings mask every text node, not only inputs and editable text: the owner's choice, else on for
             *     professional sites (see `mask_all_text_choice`).
             */
            maskAllText: boolean;
            /**
             * @description The replay player loads the recorded page's remote images, fonts and stylesheets from the hosts that
             *     served them, which tells those hosts that someone is watching (and from what address). Off: the
             *     player loads nothing from elsewhere.
             */
            replayRemoteAssets: boolean;
        };
        /** @description Changed fields of `PUT /api/privacy/settings`; absent ones stay. */
        PrivacyUpdate: {
            gdprCompliant?: boolean | null;
            cookieConsent?: boolean | null;
            anonymizeIPs?: boolean | null;
            respectDoNotTrack?: boolean | null;
            dataSubjectRights?: boolean | null;
            dataPortability?: boolean | null;
            dataDeletion?: boolean | null;
            /** Format: int64 */
            dataRetentionDays?: number | null;
            dataProcessingBasis?: string | null;
            consentMessage?: string | null;
            privacyPolicyUrl?: string | null;
            maskAllText?: boolean | null;
            replayRemoteAssets?: boolean | null;
        };
        /** @description Profile settings: name, email, company, timezone (IANA name, default UTC). */
        Profile: {
            name: string;
            email: string;
            /** @description Whether reports and alerts may go to `email`: it was confirmed by a mailed link (issue 33). Read only. */
            emailVerified: boolean;
            company: string;
            timezone: string;
        };
        ProfileUpdate: {
            name: string;
            company?: string;
            timezone: string;
        };
        /** @description A property key (as `prop:<key>` and `event:props:<key>` name it) and how many of the events carry it. */
        PropertyKey: {
            key: string;
            /** Format: int64 */
            events: number;
        };
        /** @description The property keys of a site's events, most carried first. */
        PropertyKeys: {
            keys: components["schemas"]["PropertyKey"][];
        };
        RealTimeMetrics: {
            /** Format: int64 */
            activeVisitors: number;
            /** Format: int64 */
            newVisitors: number;
            /** Format: int64 */
            conversions: number;
        };
        /** @description A feature's share in one score, in log-odds against the reference visit; positive raises the score. */
        Reason: {
            feature: string;
            label: string;
            /** Format: double */
            impact: number;
        };
        Recommendation: {
            id: string;
            /** @description high, medium or low. */
            priority: string;
            title: string;
            detail: string;
            /** @description The numbers the text cites. */
            evidence: components["schemas"]["Evidence"][];
        };
        /** @description Single-use recovery codes, shown once. */
        RecoveryCodes: {
            recoveryCodes: string[];
        };
        /** @description `GET /api/websites/{id}/referrers` item; an empty referrer means Direct. */
        ReferrerCount: {
            referrer: string;
            /** Format: int64 */
            count: number;
        };
        RefreshRequest: {
            refreshToken: string;
        };
        /** @description A new token pair from a refresh. */
        RefreshedTokens: {
            accessToken: string;
            refreshToken: string;
        };
        /**
         * @description Who may sign up through `POST /api/register`; `tracker users add` always can.
         * @enum {string}
         */
        RegistrationMode: "open" | "first-user" | "closed";
        /** @description Whether the Sign Up tab can create an account here. */
        RegistrationState: {
            mode: components["schemas"]["RegistrationMode"];
            open: boolean;
        };
        /** @description `GET /api/replays/{id}`: one recording and the site it belongs to. */
        ReplayDetail: {
            websiteId: components["schemas"]["i64"];
            replay: components["schemas"]["ReplaySummary"];
        };
        /** @description The shape of `GET /api/replays/{id}/events` for the contract; the body itself is streamed as bytes. */
        ReplayEvents: {
            /** @description rrweb events, oldest first. */
            events: unknown[];
        };
        /** @description Who the visit came from. */
        ReplayOrganization: {
            organizationName: string;
            industry?: string | null;
            size?: string | null;
        };
        /** @description The recorded visit. */
        ReplaySession: {
            deviceType: string;
            browser: string;
            os: string;
            country: string;
            ipAddress?: string | null;
            /** Format: int64 */
            pageViewCount: number;
        };
        /**
         * @description `GET /api/websites/{id}/session-replays/stats`: the four cards of the Session Replays screen over every
         *     recording of the range that passes the filter (the list shows at most [`MAX_REPLAYS`]).
         */
        ReplayStats: {
            /** Format: int64 */
            total: number;
            /** Format: int64 */
            complete: number;
            /**
             * Format: double
             * @description Seconds, over all the recordings counted.
             */
            averageDuration: number;
            /**
             * Format: int64
             * @description Recordings of visits from organizations the owner set to enterprise.
             */
            enterprise: number;
        };
        /** @description `GET /api/websites/{id}/session-replays` item (spec part 2 §3, plus `clickCount`). */
        ReplaySummary: {
            /** Format: int64 */
            id: number;
            sessionId: string;
            /** Format: date-time */
            startTime: string;
            /**
             * Format: int64
             * @description Seconds between the first and the last recorded event.
             */
            duration: number;
            /**
             * Format: int64
             * @description Compressed bytes stored.
             */
            fileSize: number;
            screenResolution?: string | null;
            isComplete: boolean;
            /**
             * Format: int64
             * @description Clicks recorded (rrweb mouse-interaction click events).
             */
            clickCount: number;
            session: components["schemas"]["ReplaySession"];
            organization?: null | components["schemas"]["ReplayOrganization"];
        };
        /** @description Days each type of data is kept (`GET /api/privacy/retention`). */
        Retention: {
            /** Format: int64 */
            pageviews: number;
            /** Format: int64 */
            events: number;
            /** Format: int64 */
            sessions: number;
            /** Format: int64 */
            heatmaps: number;
            /** Format: int64 */
            recordings: number;
            /** Format: int64 */
            conversions: number;
        };
        /** @description `PUT /api/privacy/retention`: the site plus the changed days. */
        RetentionBody: components["schemas"]["RetentionUpdate"] & {
            websiteId?: unknown;
        };
        /** @description Changed fields of a retention update. */
        RetentionUpdate: {
            /** Format: int64 */
            pageviews?: number | null;
            /** Format: int64 */
            events?: number | null;
            /** Format: int64 */
            sessions?: number | null;
            /** Format: int64 */
            heatmaps?: number | null;
            /** Format: int64 */
            recordings?: number | null;
            /** Format: int64 */
            conversions?: number | null;
        };
        /** @description The revenue by a dimension: rows of a value, a currency, the sum and the conversions, greatest sums first. */
        Revenue: {
            dimension: string;
            rows: components["schemas"]["RevenueRow"][];
        };
        /**
         * @description One row of the revenue panel: a value of the dimension ('' = unknown, Direct for sources), a currency, the
         *     sum of the conversions' values in it and how many there were.
         */
        RevenueRow: {
            value: string;
            /** @description ISO 4217 code; '' when the conversions' values came without one. */
            currency: string;
            /**
             * Format: double
             * @description The sum, to the cent.
             */
            amount: number;
            /** Format: int64 */
            conversions: number;
        };
        /**
         * @description A role on a site (issue 37), ordered: each may do what the roles below it may. A `viewer` reads everything
         *     of the site (replays and the visitor stream included); an `editor` also edits event definitions, funnels
         *     and organizations; an `admin` also manages members, site and privacy settings and deletes data; the
         *     `owner` (the site's creator) also deletes the site.
         * @enum {string}
         */
        Role: "viewer" | "editor" | "admin" | "owner";
        /** @description A member's new role (viewer, editor or admin). */
        RoleRequest: {
            role: string;
        };
        /** @description A stored segment. */
        SavedSegment: {
            /** Format: int64 */
            id: number;
            name: string;
            /** @description Stats API v2 filters, e.g. `[["is","visit:source",["Google"]]]` (API.md "Filters"). */
            filters: unknown[];
            /** @description The email of the account that saved it; null once that account is gone. */
            createdBy?: string | null;
            /** @description Listed only to the account that saved it; shared with everyone on the site otherwise. */
            personal: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @description What a tracking script needs to know about its site; inlined into the personalised script. */
        ScriptConfig: {
            trackingKey: string;
            endpoint: string;
            level: components["schemas"]["TrackingLevel"];
            respectDoNotTrack: boolean;
            requireConsent: boolean;
            heatmaps: boolean;
            recordings: boolean;
            /** @description Recordings mask every text node (inputs and editable text are masked always). */
            maskAllText: boolean;
            consentMessage: string;
            privacyPolicyUrl: string;
            definitions: components["schemas"]["ActiveDefinition"][];
        };
        /** @description Share of page views that scrolled at least `depth` percent. */
        ScrollReach: {
            /** Format: int64 */
            depth: number;
            /** Format: double */
            percentage: number;
            /** Format: int64 */
            visitors: number;
        };
        /**
         * @description Security settings: saved and applied (the session timeout ends idle sign-ins; login notifications
         *     record each sign-in).
         */
        Security: {
            twoFactorEnabled: boolean;
            /**
             * Format: int64
             * @description Minutes.
             */
            sessionTimeout: number;
            loginNotifications: boolean;
        };
        SecurityUpdate: {
            /**
             * Format: int64
             * @description Minutes (5 to 480), as a number or text.
             */
            sessionTimeout?: number | null;
            loginNotifications?: boolean | null;
        };
        Segment: {
            segment: string;
            /** @description `visitor`, `source` or `device`. */
            group: string;
            /** Format: int64 */
            count: number;
            /** Format: double */
            conversionRate: number;
        };
        /** @description The body of `POST` and `PUT /api/websites/{id}/segments`. */
        SegmentRequest: {
            /** @description Trimmed, 1 to 100 characters, no control characters; unique on the site. */
            name: string;
            /** @description At least one filter, in the syntax every read's `filters` takes. */
            filters: unknown[];
            /**
             * @description Only for the account saving it (true) or shared with the site (false, the default on create; on update,
             *     absent keeps it, and only the account that saved it may change it).
             */
            personal?: boolean | null;
        };
        /** @description `GET /api/analytics/sessions/{id}/journey`. */
        SessionJourney: {
            /** Format: int64 */
            sessionId: number;
            websiteId: components["schemas"]["i64"];
            /** Format: date-time */
            firstSeen: string;
            /** Format: date-time */
            lastSeen: string;
            /** @description The pages in the order they were viewed (a page viewed twice appears twice). */
            steps: components["schemas"]["SessionJourneyStep"][];
            /** @description The visit had more than [`JOURNEY_MAX_HITS`] hits; the later ones are left out. */
            truncated: boolean;
        };
        /** @description One page view of a journey. */
        SessionJourneyStep: {
            /** @description The page's path. */
            page: string;
            /** Format: date-time */
            enteredAt: string;
            /**
             * Format: int64
             * @description Seconds until the next page view; for the last page, until the visit's latest hit.
             */
            duration: number;
            /** @description Events (custom, conversions, outbound links, downloads) on this page, in order. */
            events: components["schemas"]["JourneyEvent"][];
        };
        /** @description The password of a password link. */
        SessionRequest: {
            password?: string | null;
        };
        /** @description `PUT /api/privacy/settings`: the site plus the changed fields. */
        SettingsBody: components["schemas"]["PrivacyUpdate"] & {
            websiteId?: unknown;
        };
        /** @description What a share link shows, for its page to draw itself. */
        ShareInfo: {
            siteName: string;
            domain: string;
            linkName: string;
            /** @description The link's fixed filters (Stats API v2 JSON text, `[]` for none). */
            filters: string;
            embed: boolean;
            passwordRequired: boolean;
        };
        /** @description A share session handed to the visitor. */
        ShareSession: {
            token: string;
            /** Format: int64 */
            expiresIn: number;
        };
        /** @description A share link as its owner sees it (never its password hash: only whether it has one). */
        SharedLink: {
            /** Format: int64 */
            id: number;
            /**
             * @description Empty when the stored slug cannot be opened (the instance secret changed since the link was made): the
             *     link still opens for whoever holds it, but its owner can no longer be shown it.
             */
            slug: string;
            name: string;
            passwordRequired: boolean;
            /** @description The link's fixed filters, Stats API v2 JSON text (`[]` for none). */
            filters: string;
            embed: boolean;
            allowedOrigins: string[];
            /** Format: date-time */
            createdAt: string;
        };
        /** @description A link to create. */
        SharedLinkRequest: {
            /** @description Trimmed, 1 to 100 characters. */
            name: string;
            /** @description Optional; at least 6 characters. Stored hashed (argon2id); visitors must enter it first. */
            password?: string | null;
            /**
             * @description Fixed filters, Plausible Stats API v2 syntax (a JSON array, or its JSON text): every read of the link is
             *     filtered by them, and a visitor's own filters only narrow further.
             */
            filters?: Record<string, never> | null;
            /** @description Whether pages of `allowedOrigins` may frame the link. */
            embed?: boolean | null;
            /** @description With `embed`: 1 to 10 exact origins (`https://host[:port]`) allowed to frame the link. */
            allowedOrigins?: string[] | null;
        };
        /** @description A link as its owner sees it, with the address to hand out. */
        SharedLinkResponse: components["schemas"]["SharedLink"] & {
            /**
             * @description `{base}/share/{slug}`; add `?embed=true` inside an iframe. Empty when the slug, sealed at rest, cannot be
             *     opened since the instance secret changed: delete the link and make a new one.
             */
            url: string;
        };
        /** @description One recorded sign-in. */
        SignIn: {
            /** Format: date-time */
            at: string;
            /** @description Anonymised as the product stores visitors' addresses (last octet, last 80 bits zeroed). */
            ipAddress: string;
            browser: string;
        };
        /** @description What the visit did, as the model saw it (up to the first conversion of a converted visit). */
        Signals: {
            /** Format: int64 */
            pageViews: number;
            /** Format: int64 */
            duration: number;
            isConverted: boolean;
            /** Format: int64 */
            scrollDepth: number;
            /** Format: int64 */
            events: number;
            returning: boolean;
            source: components["schemas"]["SourceType"];
            organization: boolean;
        };
        /** @description A site's owner and members, and its open invitations. */
        SiteMembers: {
            /** @description The owner first, then the members, oldest first. */
            members: components["schemas"]["Member"][];
            invitations: components["schemas"]["Invitation"][];
        };
        /**
         * @description `GET /api/dashboard/sites` item. Periods are whole days of each site's timezone; the 7- and 30-day ones
         *     include today.
         */
        SitePeriods: {
            websiteId: components["schemas"]["i64"];
            /** Format: int64 */
            today: number;
            /** Format: int64 */
            yesterday: number;
            /** Format: int64 */
            last7Days: number;
            /** Format: int64 */
            last30Days: number;
        };
        /** @description A width and height in CSS pixels. */
        Size: {
            /** Format: double */
            w: number;
            /** Format: double */
            h: number;
        };
        /**
         * @description Where a visit came from, once: UTM tags make it a campaign, else its referrer's kind, else direct.
         * @enum {string}
         */
        SourceType: "search" | "social" | "direct" | "referral" | "campaign";
        /** @description The visits that stopped at one step. */
        StepDropOffs: {
            /**
             * Format: int32
             * @description 1-based.
             */
            step: number;
            name: string;
            /**
             * Format: int64
             * @description Visits of the range that reached this step and not the next (all of them, not only those listed).
             */
            droppedOff: number;
            /** @description The newest of them, at most `limit`. */
            visits: components["schemas"]["DropOffVisit"][];
        };
        /** @description A step as the dialog sends it. */
        StepInput: {
            name?: string | null;
            url?: string | null;
            eventName?: string | null;
        };
        /** @description A session of the visitor stream (spec part 2 §3, "Session (visitor stream)"). */
        StreamSession: {
            /** Format: int64 */
            id: number;
            /** @description The session's site, for the per-session journey call when the stream spans several sites. */
            websiteId: components["schemas"]["i64"];
            country: string;
            /** @description Empty unless the operator set `geo_city_db`. */
            region: string;
            /** @description Empty unless the operator set `geo_city_db`. */
            city: string;
            /** @description "desktop", "mobile", "tablet" or "" (the screen shows "Desktop" then). */
            deviceType: string;
            browser: string;
            os: string;
            /** Format: date-time */
            firstSeen: string;
            /** Format: date-time */
            lastSeen: string;
            isConverted: boolean;
            /** Format: double */
            conversionValue: number;
            /**
             * Format: int64
             * @description Seconds from the first to the latest hit.
             */
            sessionDuration: number;
            /** Format: int64 */
            pageViewCount: number;
            entryPage: string;
            exitPage: string;
            utmSource: string;
            referrer: string;
            currentActivity: components["schemas"]["CurrentActivity"];
        };
        /** @description A ticket handed to the dashboard. */
        StreamTicket: {
            ticket: string;
            /** Format: int64 */
            expiresIn: number;
        };
        /** @description A form submitted on the page: the form's selector and when. */
        SubmitIn: {
            selector?: string | null;
            /** Format: int64 */
            t?: number | null;
        };
        /**
         * @description One bucket: a local day of the site (`2026-11-15`) for daily ranges, an ISO hour for hourly ones (`Z` in UTC,
         *     else with the site's offset, `2026-11-15T13:00:00+05:30`).
         */
        TimePoint: {
            date: string;
            /** Format: int64 */
            visitors: number;
            /** Format: int64 */
            pageViews: number;
        };
        /** @description `GET /api/dashboard/timeseries`. */
        Timeseries: {
            points: components["schemas"]["TimePoint"][];
            /** @description With `compare=`: the compared period's points, one for each of `points`, in the same order. */
            comparison?: components["schemas"]["TimePoint"][] | null;
            /** @description The site's annotations on the range's days (issue 37), by day; the chart marks them. */
            annotations: components["schemas"]["AnnotationMark"][];
        };
        TopPage: {
            url: string;
            /** Format: int64 */
            views: number;
            /** Format: double */
            conversionRate: number;
        };
        /** @description The body of `POST /api/track` (spec part 2 §7), plus the optional `screen`. */
        TrackRequest: {
            tracking_key: string;
            session_id: string;
            url: string;
            referrer?: string | null;
            event?: string | null;
            event_name?: string | null;
            event_properties?: {
                [key: string]: unknown;
            } | null;
            timestamp?: unknown;
            screen?: string | null;
        };
        /**
         * @description What a site's tracking script collects (spec part 1 §4).
         * @enum {string}
         */
        TrackingLevel: "light" | "enhanced" | "professional";
        /** @description `GET /api/websites/{id}/traffic-sources` item. */
        TrafficSource: {
            source: string;
            /** Format: int64 */
            visits: number;
            /**
             * Format: double
             * @description Share of all visits of the range in percent, one decimal.
             */
            percentage: number;
        };
        /** @description The current password and, while two-factor is on, a code from the app or an unused recovery code. */
        TwoFactorDisableRequest: {
            password: string;
            code?: string;
        };
        /** @description The current password and a code from the authenticator app. */
        TwoFactorEnableRequest: {
            password: string;
            code: string;
        };
        /** @description What the Settings screen shows to enrol an authenticator app. */
        TwoFactorSetup: {
            /** @description The secret in base32, for typing into an app by hand. */
            secret: string;
            otpauthUrl: string;
            /** @description The otpauth URI as a QR code (SVG markup). */
            qrSvg: string;
        };
        /** @description The current password, asked before two-factor enrolment starts. */
        TwoFactorSetupRequest: {
            password: string;
        };
        /**
         * @description Umami's answer to a stored hit, which its script keeps (`cache`, sent back as `x-umami-cache`, is not
         *     needed here: the visit is named from the request each time).
         */
        UmamiAnswer: {
            cache: string;
            sessionId: string;
            visitId: string;
        };
        /** @description What Umami's clients send about the page and the visitor. */
        UmamiPayload: {
            /** @description The site's tracking key, or its Umami website id. */
            website?: string | null;
            hostname?: string | null;
            /** @description The page: a URL, or a path on `hostname`. */
            url?: string | null;
            referrer?: string | null;
            /** @description "1920x1080". */
            screen?: string | null;
            language?: string | null;
            title?: string | null;
            /** @description A custom event's name; none for a page view. */
            name?: string | null;
            /** @description A custom event's properties, or an identify's traits. */
            data?: Record<string, never> | null;
            /** @description The distinct id of an identified visitor. */
            id?: string | null;
            /**
             * Format: int64
             * @description Seconds since 1970 (trusted within the last day, as our own script's timestamps).
             */
            timestamp?: number | null;
            /** @description The visitor's user agent, from a server-side sender. */
            userAgent?: string | null;
        };
        /** @description The body of Umami's `POST /api/send`. */
        UmamiSend: {
            /**
             * @description `event` (a page view, or a custom event when `name` is set), `identify`, or `performance` (read and
             *     not stored).
             */
            type: string;
            payload: components["schemas"]["UmamiPayload"];
        };
        UpdateWebsite: {
            name?: string | null;
            domain?: string | null;
            trackingLevel?: string | null;
            domainOnly?: boolean | null;
            /** @description The site's old Umami website id (a UUID) for Umami's clients; `null` or "" removes it. */
            umamiWebsiteId?: string | null;
            /** @description The site's timezone, an IANA name such as `Asia/Kolkata`: its reads' days and hours are local ones. */
            timezone?: string | null;
        };
        /** @description A registered account, without secrets. */
        User: {
            id: components["schemas"]["i64"];
            email: string;
            /** Format: date-time */
            createdAt: string;
        };
        /** @description What `POST /api/privacy/delete-visitor` answers: the total and the rows per table. */
        VisitorDeleted: {
            /** Format: int64 */
            recordsDeleted: number;
            deleted: components["schemas"]["VisitorDeletion"];
        };
        /** @description Rows removed by a visitor's erasure, per table. */
        VisitorDeletion: {
            /** Format: int64 */
            sessions: number;
            /** Format: int64 */
            events: number;
            /** Format: int64 */
            interactions: number;
            /** Format: int64 */
            scrollDepths: number;
            /** Format: int64 */
            recordings: number;
            /** Format: int64 */
            consentLogs: number;
        };
        /** @description Who the visitor is, as the journey panel shows it. */
        VisitorInfo: {
            /** @description City, region and country joined, or 'Unknown Location'. */
            location: string;
            /** @description Device type, 'Desktop' when unknown. */
            device: string;
            /** @description 'Unknown' when unknown. */
            browser: string;
            /**
             * @description The visit's source as Traffic Sources names it (utm_source, else the referring host, by the referrer
             *     list's names), else 'Direct'.
             */
            source: string;
        };
        /** @description A tracked website. */
        Website: {
            id: components["schemas"]["i64"];
            name: string;
            domain: string;
            trackingKey: string;
            trackingLevel: components["schemas"]["TrackingLevel"];
            /** Format: date-time */
            createdAt: string;
            /** @description Hits are accepted only for pages on `domain` and its subdomains (opt-in). */
            domainOnly: boolean;
            /**
             * @description The site's website id in Umami (a UUID), which Umami's clients send to `POST /api/send`: set by the
             *     Umami importer or in the site's settings.
             */
            umamiWebsiteId?: string | null;
            /**
             * @description The site's timezone (an IANA name): the days, weeks, months and hours of its reads are local ones. A new
             *     site takes its creator's profile timezone.
             */
            timezone: string;
        };
        /** @description A website as the API shows it: the stored fields, its script URL and the caller's role on it. */
        WebsiteResponse: components["schemas"]["Website"] & {
            scriptUrl: string;
            /** @description The caller's role on the site: `owner` for its creator, else the role it was given as a member. */
            role: components["schemas"]["Role"];
        };
        Weight: {
            feature: string;
            /** Format: double */
            weight: number;
        };
        /** Format: int64 */
        i64: number;
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    advancedAnalytics: {
        parameters: {
            query?: {
                website_id?: number;
                time_range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Real-time metrics, top pages, segments and the overview of the Advanced Analytics screen */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Advanced"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    aiIntent: {
        parameters: {
            query?: {
                website_id?: number;
                time_range?: string;
                refit?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Visitor intent scores from the fitted model, patterns and recommendations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiIntent"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    customerJourneys: {
        parameters: {
            query?: {
                period?: string;
                filter?: string;
                website_id?: number;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Journeys of recent visitors with their steps, scores and a summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerJourneys"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    heatmap: {
        parameters: {
            query?: {
                website_id?: number;
                url?: string;
                time_range?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Clicks, scroll depth, moves, page metrics and forms of one page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Heatmap"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    heatmapPage: {
        parameters: {
            query?: {
                website_id?: number;
                url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page's rrweb full snapshot from the latest recording of it, or null */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PageRendering"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    journeyPaths: {
        parameters: {
            query?: {
                period?: string;
                filter?: string;
                website_id?: number;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The most common page paths (a Sankey of page to page moves) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JourneyPaths"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    liveVisitors: {
        parameters: {
            query?: {
                website_id?: number;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Visitors active in the last minutes on the user's sites (or one site) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LiveVisitors"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    streamSession: {
        parameters: {
            query?: {
                website_id?: number;
            };
            header?: never;
            path: {
                /** @description Session id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One session as the stream lists it, whenever it was seen (the detail panel of a funnel's drop-off) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StreamSession"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    sessionJourney: {
        parameters: {
            query?: {
                website_id?: number;
            };
            header?: never;
            path: {
                /** @description Session id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every page and event of one session, in order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionJourney"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    heatmapUrls: {
        parameters: {
            query?: {
                website_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Page paths with interaction data */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    liveStream: {
        parameters: {
            query?: {
                website_id?: number;
                ticket?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-sent events: `data: {"type":"active_sessions","data":[ActiveSession...]}` on connect and on every change */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    liveTicket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A ticket for `GET /api/dashboard/live?ticket=` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StreamTicket"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    overview: {
        parameters: {
            query?: {
                website_id?: number;
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
                /** @description `previous_period` (the default of the cards' `previous`) or `year_over_year`. */
                compare?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Headline figures, the previous period and top pages */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Overview"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    recentActivity: {
        parameters: {
            query?: {
                website_id?: number;
                limit?: number;
                /**
                 * @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"):
                 *     only the items they admit.
                 */
                filters?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The latest page views and events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivityEvent"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    sitePeriods: {
        parameters: {
            query?: {
                metric?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A metric of every site today, yesterday, 7 and 30 days */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SitePeriods"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    timeseries: {
        parameters: {
            query?: {
                website_id?: number;
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
                /** @description `previous_period` (the default of the cards' `previous`) or `year_over_year`. */
                compare?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Visitors and page views per hour or day, and the annotations on the range's days */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timeseries"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    plausibleEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Plausible's Events API body or its script's short keys: any content type, JSON text */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlausibleEvent"];
            };
        };
        responses: {
            /** @description Stored, or dropped (an unknown domain, a bot, the site's rules) with `x-plausible-dropped` saying how many: the text `ok` */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description The queue is full: retry after the Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: bad input */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    exportRecent: {
        parameters: {
            query?: {
                website_id?: number;
                /** @description 24h, 7d or 30d (spec part 2 §9); without it, the most recent rows. */
                range?: string;
                /** @description csv (default) or json. */
                format?: string;
                /**
                 * @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"):
                 *     only the rows they admit.
                 */
                filters?: string;
            };
            header?: never;
            path: {
                /** @description pageviews or events */
                kind: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The 10,000 most recent rows as CSV */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listFunnels: {
        parameters: {
            query?: {
                website_id?: number;
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The funnels of the user's sites (or of one site) with their step counts over the range */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Funnel"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createFunnel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FunnelInput"];
            };
        };
        responses: {
            /** @description The new funnel with its counts over the last 30 days */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Funnel"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getFunnel: {
        parameters: {
            query?: {
                website_id?: number;
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path: {
                /** @description Funnel id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The funnel with its step counts over the range */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Funnel"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateFunnel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Funnel id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FunnelInput"];
            };
        };
        responses: {
            /** @description The changed funnel with its counts over the last 30 days; when the steps or site changed, its definition with figuresPending true and figures 0 (the next list or read counts them) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Funnel"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteFunnel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Funnel id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    funnelDropOffs: {
        parameters: {
            query?: {
                /** @description 1d, 7d, 30d or 90d; 30d by default. */
                range?: string;
                /** @description Visits listed per step, 1-100; 20 by default. */
                limit?: number;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path: {
                /** @description Funnel id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Per step but the last, the newest visits of the range that reached it and not the next step */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FunnelDropOffs"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    interactions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Sent as a beacon: any content type, JSON text */
        requestBody: {
            content: {
                "application/json": components["schemas"]["InteractionsRequest"];
            };
        };
        responses: {
            /** @description Stored (or ignored by the site's rules) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Done"];
                };
            };
            /** @description The queue is full: retry after the Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Credentials"];
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Login"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LogoutRequest"];
            };
        };
        responses: {
            /** @description The sign-in has ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of this API */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    privacyAuditLogs: {
        parameters: {
            query?: {
                website_id?: number;
                offset?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the site's privacy audit log, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    consentLogs: {
        parameters: {
            query?: {
                website_id?: number;
                offset?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recent consent decisions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsentLog"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteData: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeleteDataRequest"];
            };
        };
        responses: {
            /** @description What was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteDataResponse"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    privacyDeleteVisitor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeleteVisitorBody"];
            };
        };
        responses: {
            /** @description What was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VisitorDeleted"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    privacyExportData: {
        parameters: {
            query?: {
                website_id?: number;
                data_type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rows as a JSON download (an array, streamed as it is read) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown[];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    retention: {
        parameters: {
            query?: {
                website_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Days kept per data type */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Retention"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateRetention: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetentionBody"];
            };
        };
        responses: {
            /** @description The days as changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Retention"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    privacySettings: {
        parameters: {
            query?: {
                website_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The site's privacy settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivacySettings"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updatePrivacySettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SettingsBody"];
            };
        };
        responses: {
            /** @description The settings as changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivacySettings"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    privacyVisitorData: {
        parameters: {
            query?: {
                website_id?: number;
                visitor_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Everything stored about one visitor, as a JSON download */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    refreshTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description A new token pair */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshedTokens"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Credentials"];
            };
        };
        responses: {
            /** @description The account is created and signed in */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthSession"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    registration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The registration mode and whether sign-up is open */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistrationState"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    uploadReplay: {
        parameters: {
            query?: {
                tracking_key?: string;
                session_id?: string;
                seq?: string;
                /** @description "1" or "true" on the last chunk of a page (pagehide). */
                final?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description One gzip-compressed chunk of rrweb events */
        requestBody: {
            content: {
                "application/octet-stream": number[];
            };
        };
        responses: {
            /** @description Stored (or ignored by the site's rules) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Done"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getReplay: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Recording id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The recording as the list shows it, and its site (a link to a recording opens it) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayDetail"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    replayEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Recording id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The recording's rrweb events in order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayEvents"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    umamiSend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UmamiSend"];
            };
        };
        responses: {
            /** @description Stored, or dropped by the site's rules; a bot's hit answers `{"beep":"boop"}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UmamiAnswer"];
                };
            };
            /** @description The queue is full: retry after the Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: bad input, or a website no site has */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    shareInfo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The link's slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The shared site and link */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareInfo"];
                };
            };
            /** @description Not found: no such link (or it was deleted) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    shareBreakdown: {
        parameters: {
            query?: {
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, ANDed to the link's own (API.md "Filters"). */
                filters?: string;
                /** @description `previous_period` or `year_over_year` (overview, timeseries, breakdowns). */
                compare?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
                /** @description Breakdown rows, 1 to 100 (10 by default). */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description The link's slug */
                slug: string;
                /** @description As GET /api/websites/{id}/breakdown/{dimension} */
                dimension: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As GET /api/websites/{id}/breakdown/{dimension} for the link's site, under its filters */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Breakdown"];
                };
            };
            /** @description Refused: bad input, a missing or expired share session (401), or no such link (404) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    shareCountries: {
        parameters: {
            query?: {
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, ANDed to the link's own (API.md "Filters"). */
                filters?: string;
                /** @description `previous_period` or `year_over_year` (overview, timeseries, breakdowns). */
                compare?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
                /** @description Breakdown rows, 1 to 100 (10 by default). */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description The link's slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As GET /api/websites/{id}/countries for the link's site, under its filters */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CountryCount"][];
                };
            };
            /** @description Refused: bad input, a missing or expired share session (401), or no such link (404) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    shareOverview: {
        parameters: {
            query?: {
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, ANDed to the link's own (API.md "Filters"). */
                filters?: string;
                /** @description `previous_period` or `year_over_year` (overview, timeseries, breakdowns). */
                compare?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
                /** @description Breakdown rows, 1 to 100 (10 by default). */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description The link's slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As GET /api/dashboard/overview for the link's site, under its filters */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Overview"];
                };
            };
            /** @description Refused: bad input, a missing or expired share session (401), or no such link (404) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    shareReferrers: {
        parameters: {
            query?: {
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, ANDed to the link's own (API.md "Filters"). */
                filters?: string;
                /** @description `previous_period` or `year_over_year` (overview, timeseries, breakdowns). */
                compare?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
                /** @description Breakdown rows, 1 to 100 (10 by default). */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description The link's slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As GET /api/websites/{id}/referrers for the link's site, under its filters */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferrerCount"][];
                };
            };
            /** @description Refused: bad input, a missing or expired share session (401), or no such link (404) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    shareSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The link's slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionRequest"];
            };
        };
        responses: {
            /** @description A share token for this link */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareSession"];
                };
            };
            /** @description Refused: a link without a password (400), a wrong password (401), no such link (404), or too many wrong passwords (429) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    shareTimeseries: {
        parameters: {
            query?: {
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, ANDed to the link's own (API.md "Filters"). */
                filters?: string;
                /** @description `previous_period` or `year_over_year` (overview, timeseries, breakdowns). */
                compare?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
                /** @description Breakdown rows, 1 to 100 (10 by default). */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description The link's slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As GET /api/dashboard/timeseries for the link's site, under its filters */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timeseries"];
                };
            };
            /** @description Refused: bad input, a missing or expired share session (401), or no such link (404) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    shareTrafficSources: {
        parameters: {
            query?: {
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, ANDed to the link's own (API.md "Filters"). */
                filters?: string;
                /** @description `previous_period` or `year_over_year` (overview, timeseries, breakdowns). */
                compare?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
                /** @description Breakdown rows, 1 to 100 (10 by default). */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description The link's slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As GET /api/websites/{id}/traffic-sources for the link's site, under its filters */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrafficSource"][];
                };
            };
            /** @description Refused: bad input, a missing or expired share session (401), or no such link (404) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    track: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Sent as a beacon: any content type, JSON text */
        requestBody: {
            content: {
                "application/json": components["schemas"]["TrackRequest"];
            };
        };
        responses: {
            /** @description Stored (or ignored by the site's rules) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Done"];
                };
            };
            /** @description The queue is full: retry after the Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    scriptConfig: {
        parameters: {
            query?: {
                tracking_key?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the tracking script needs to know about its site */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptConfig"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    currentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signed-in account and whether its address is confirmed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CurrentUser"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountDeletion"];
            };
        };
        responses: {
            /** @description The account and all its data are gone */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Done"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's API keys, newest first, never their secrets */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"][];
                };
            };
            /** @description Refused: no valid sign-in, or an API key (keys cannot manage keys) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyRequest"];
            };
        };
        responses: {
            /** @description The key and its secret, shown this once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            /** @description Refused: a bad name or scope (400), no valid sign-in, an API key (403), or the account's 50 keys already (409) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Done"];
                };
            };
            /** @description Refused: no valid sign-in, an API key (403), or not found (another account's key too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    changeEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailChange"];
            };
        };
        responses: {
            /** @description The new email and whether it is confirmed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailAnswer"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    resendEmailVerification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link is mailed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Done"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    confirmEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailConfirmation"];
            };
        };
        responses: {
            /** @description The address is confirmed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailAnswer"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    exportAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's data as a JSON download */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Open invitations to the account's confirmed address, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"][];
                };
            };
            /** @description Refused: no valid sign-in */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Invitation id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcceptRequest"];
            };
        };
        responses: {
            /** @description The site, with the account's role on it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebsiteResponse"];
                };
            };
            /** @description Refused: no valid sign-in, or not found (another account's invitation too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateNotifications: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotificationsUpdate"];
            };
        };
        responses: {
            /** @description The saved notification preferences */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Notifications"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description Changed; a new token pair for this sign-in */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordChanged"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProfileUpdate"];
            };
        };
        responses: {
            /** @description The saved profile */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Profile"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateSecurity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SecurityUpdate"];
            };
        };
        responses: {
            /** @description The saved security settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Security"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    userSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Profile, notifications, security settings and recent sign-ins */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountSettings"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    twoFactorDisable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorDisableRequest"];
            };
        };
        responses: {
            /** @description Two-factor sign-in is off */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Done"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    twoFactorEnable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorEnableRequest"];
            };
        };
        responses: {
            /** @description Two-factor sign-in is on; the recovery codes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecoveryCodes"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    twoFactorSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorSetupRequest"];
            };
        };
        responses: {
            /** @description A pending TOTP secret with its otpauth URI and QR code */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorSetup"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    statsQuery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Plausible's Stats API v2 query; site_id is the site's domain */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description {results:[{metrics, dimensions}], meta, query} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Refused: a bad field (named), no valid sign-in or key, or a site that is not the caller's (404) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listWebsites: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's own websites, then those shared with it, each with the caller's role */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebsiteResponse"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, a role too low for the call (403), or not found (a site the caller has no role on too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createWebsite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebsite"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebsiteResponse"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, a role too low for the call (403), or not found (a site the caller has no role on too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWebsite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The website */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebsiteResponse"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, a role too low for the call (403), or not found (a site the caller has no role on too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateWebsite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebsite"];
            };
        };
        responses: {
            /** @description The website as changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebsiteResponse"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, a role too low for the call (403), or not found (a site the caller has no role on too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteWebsite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted with all its data */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: bad input, no valid sign-in, a role too low for the call (403), or not found (a site the caller has no role on too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listAnnotations: {
        parameters: {
            query?: {
                /** @description A preset as every read takes (`7d`, `30d`, `month`, ...); `all` (the default) lists every annotation. */
                range?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The annotations on the range's days, by day then oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Annotation"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createAnnotation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnnotationRequest"];
            };
        };
        responses: {
            /** @description Written */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Annotation"];
                };
            };
            /** @description Refused: a bad date or text (400), no valid sign-in, a read API key (403), not found (another user's id too), or the site's 1000 annotations already (409) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateAnnotation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description Annotation id */
                annotationId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnnotationRequest"];
            };
        };
        responses: {
            /** @description The changed annotation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Annotation"];
                };
            };
            /** @description Refused: a bad date or text (400), no valid sign-in, a read API key (403), or not found (another site's annotation too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteAnnotation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description Annotation id */
                annotationId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Done"];
                };
            };
            /** @description Refused: no valid sign-in, a read API key (403), or not found (another site's annotation too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    breakdown: {
        parameters: {
            query?: {
                range?: string;
                limit?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
                /** @description `previous_period` (the default of the cards' `previous`) or `year_over_year`. */
                compare?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description page, event, goal, prop:<key>, or a visit dimension: entry_page, exit_page, source, referrer, utm_source, utm_medium, utm_campaign, utm_content, utm_term, country, region, city, device, browser, os, screen */
                dimension: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Counts by value, most first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Breakdown"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    conversions: {
        parameters: {
            query?: {
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Conversions of the range and the conversion rate */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversions"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    countries: {
        parameters: {
            query?: {
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Countries, most first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CountryCount"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listEventDefinitions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The site's event definitions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventDefinition"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createEventDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewEventDefinition"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventDefinition"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateEventDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description Definition id */
                definitionId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewEventDefinition"];
            };
        };
        responses: {
            /** @description The changed definition */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventDefinition"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteEventDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description Definition id */
                definitionId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    eventPropertyKeys: {
        parameters: {
            query?: {
                /** @description Any period of the other reads (API.md "Periods"), 30 days by default. */
                range?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
                /**
                 * @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","event:name",["Signup"]]]` (API.md
                 *     "Filters"): the keys of the events they admit.
                 */
                filters?: string;
                /** @description How many keys, 1 to 100 (20 by default). */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Property keys, most carried first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyKeys"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    eventsSummary: {
        parameters: {
            query?: {
                /** @description 24h, 7d or 30d (the Events screen's choices; 7d by default). */
                timeRange?: string;
                time_range?: string;
                /** @description Any period of the other reads (API.md "Periods") in place of `timeRange`. */
                range?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of a range (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Event totals and the top events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventSummary"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    exportWebsite: {
        parameters: {
            query?: {
                format?: string;
                /** @description Optional: only the rows of a dashboard range (`7d`, `30d`, ...); all history without it. */
                range?: string;
                type?: string;
                /**
                 * @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"):
                 *     only the rows they admit.
                 */
                filters?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The site's data: JSON by default, CSV or JSON lines as an attachment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportRow"][];
                    "text/csv": string;
                    "application/x-ndjson": string;
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    identifiedVisitors: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Visitors named by identify() */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdentifiedVisitor"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    importHistory: {
        parameters: {
            query: {
                /** @description The tool the file comes from: plausible, umami or goatcounter. */
                from: string;
                /** @description The file's own name, kept in the site's list of imports ("upload" without one). */
                name?: string;
                /** @description Import the readable rows and report the others (by default a bad row stops the import, nothing written). */
                skip_bad_rows?: boolean;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        /** @description The export file as the tool wrote it: Plausible CE's zip, Umami's events CSV, GoatCounter's CSV (plain or gzipped) */
        requestBody: {
            content: {
                "application/octet-stream": number[];
            };
        };
        responses: {
            /** @description What was imported, as `tracker import --json` reports it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description The file is larger than import_max_bytes, or a compressed file (gzip, or a zip's entry) expands past 200 times its compressed size and past 16 MiB: refused as a compression bomb */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a file the importer cannot read (its message), days already imported (409), no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    withdrawInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description Invitation id */
                invitationId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Withdrawn */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: a role below admin (403), or not found */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The owner first, then the members, and the open invitations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SiteMembers"];
                };
            };
            /** @description Refused: no valid sign-in, a role below admin (403), or not found (a site the caller has no role on too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    inviteMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InviteRequest"];
            };
        };
        responses: {
            /** @description The invitation; `link` when it was not mailed */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedInvitation"];
                };
            };
            /** @description Refused: a bad address or role (400), a role below admin (403), not found, or the address has access already (409) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getOwnSiteEmails: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether the caller gets the site's weekly report and traffic alerts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberEmails"];
                };
            };
            /** @description Refused: no valid sign-in, or not found (a site the caller has no role on too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    setOwnSiteEmails: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemberEmailsRequest"];
            };
        };
        responses: {
            /** @description The member's choice as saved */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberEmails"];
                };
            };
            /** @description Refused: a bad body (400), no valid sign-in, not found (a site the caller has no role on too), or the site's owner (409) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description The member's account id */
                memberId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RoleRequest"];
            };
        };
        responses: {
            /** @description The member with its new role */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description Refused: a bad role (400), a role below admin, the caller's own role or the owner's (403), or not found */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description The member's account id */
                memberId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: a role below admin, the owner (403), or not found */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listOrganizations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Organizations that visited the site */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationSummary"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description Organization id */
                orgId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrganizationUpdate"];
            };
        };
        responses: {
            /** @description The organization with what the owner set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationSummary"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    handOverWebsite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HandOverRequest"];
            };
        };
        responses: {
            /** @description The site's team as it is now: the new owner first, the old one an admin */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SiteMembers"];
                };
            };
            /** @description Refused: a bad body (400), a role below owner (403), not found (a member id not on the site too), or a member who is not an admin or already owns a site of this domain (409) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    referrers: {
        parameters: {
            query?: {
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Referrers, most first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferrerCount"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    revenue: {
        parameters: {
            query?: {
                range?: string;
                /** @description Rows (a value in one currency), 1 to 1000; 10 by default. */
                limit?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description As GET /api/websites/{id}/breakdown/{dimension}: source, goal, page, prop:<key>, country, ... */
                dimension: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sums by value and currency, greatest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Revenue"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listSegments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The site's segments, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedSegment"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SegmentRequest"];
            };
        };
        responses: {
            /** @description Saved */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedSegment"];
                };
            };
            /** @description Refused: a bad name or filters (400), no valid sign-in, a read API key or a shared segment saved by a viewer (403), not found (another user's id too), a taken name or the site's 100 segments already (409) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description Segment id */
                segmentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SegmentRequest"];
            };
        };
        responses: {
            /** @description The changed segment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedSegment"];
                };
            };
            /** @description Refused: a bad name or filters (400), no valid sign-in, a read API key or a viewer changing a shared segment or sharing one (403), not found (another site's or another account's personal segment too), or a taken name (409) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description Segment id */
                segmentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Done"];
                };
            };
            /** @description Refused: no valid sign-in, a read API key or a viewer deleting a shared segment (403), or not found (another site's or another account's personal segment too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listReplays: {
        parameters: {
            query?: {
                limit?: string;
                timeRange?: string;
                time_range?: string;
                range?: string;
                filter?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recordings of the range, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplaySummary"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    replayStats: {
        parameters: {
            query?: {
                limit?: string;
                timeRange?: string;
                time_range?: string;
                range?: string;
                filter?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The four cards over every recording of the range that passes the filter (limit is ignored) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayStats"];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listSharedLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The site's share links, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedLinkResponse"][];
                };
            };
            /** @description Refused: no valid sign-in, or not found (another user's site too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createSharedLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SharedLinkRequest"];
            };
        };
        responses: {
            /** @description The link, its slug (128 random bits) and its address */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedLinkResponse"];
                };
            };
            /** @description Refused: a bad name, password, filter or origin (400), no valid sign-in, not found (another user's site too), or the site's 50 links already (409) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteSharedLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description The link's id */
                linkId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Done"];
                };
            };
            /** @description Refused: no valid sign-in, or not found (another site's link too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    trafficSources: {
        parameters: {
            query?: {
                range?: string;
                /** @description Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"). */
                filters?: string;
                /** @description First day, YYYY-MM-DD, with `to` in place of `range` (UTC days). */
                from?: string;
                /** @description Last day, YYYY-MM-DD, included. */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Visits by source channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrafficSource"][];
                };
            };
            /** @description Refused: bad input, no valid sign-in, or not found (another user's id too) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    goatcounterCount: {
        parameters: {
            query?: {
                /** @description The page's path (with its query), or an event's name when `e` is set. */
                p?: string;
                /** @description The referrer. */
                r?: string;
                /** @description The page's title (not stored). */
                t?: string;
                /** @description `true` for an event. */
                e?: string;
                /** @description The screen's width in CSS pixels. */
                s?: string;
                /** @description The script's guess that a headless browser runs it: 150 and up. */
                b?: string;
                /** @description The page's `location.search` (campaign parameters). */
                q?: string;
                /** @description A random value against caches, ignored. */
                rnd?: string;
            };
            header?: never;
            path: {
                /** @description The site's tracking key */
                trackingKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Counted, or dropped (a headless browser, the site's rules): a 1×1 GIF */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/gif": number[];
                };
            };
            /** @description The queue is full: retry after the Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: bad input, or not found */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    goatcounterBeacon: {
        parameters: {
            query?: {
                /** @description The page's path (with its query), or an event's name when `e` is set. */
                p?: string;
                /** @description The referrer. */
                r?: string;
                /** @description The page's title (not stored). */
                t?: string;
                /** @description `true` for an event. */
                e?: string;
                /** @description The screen's width in CSS pixels. */
                s?: string;
                /** @description The script's guess that a headless browser runs it: 150 and up. */
                b?: string;
                /** @description The page's `location.search` (campaign parameters). */
                q?: string;
                /** @description A random value against caches, ignored. */
                rnd?: string;
            };
            header?: never;
            path: {
                /** @description The site's tracking key */
                trackingKey: string;
            };
            cookie?: never;
        };
        /** @description None: count.js sends the hit in the query, as a beacon */
        requestBody: {
            content: {
                "text/plain": string;
            };
        };
        responses: {
            /** @description Counted, or dropped (a headless browser, the site's rules): a 1×1 GIF */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/gif": number[];
                };
            };
            /** @description The queue is full: retry after the Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: bad input, or not found */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}
