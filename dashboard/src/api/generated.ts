// Generated from the daemon's OpenAPI document by `npm run contract` (dashboard/contract.mjs): do not edit.
// The Rust routes and types are the source; src/api/types.ts names what the dashboard uses.

export interface paths {
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AccountDeletion: {
            password: string;
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
        /** @description The answer to a successful login, registration or password change. */
        AuthSession: {
            accessToken: string;
            refreshToken: string;
            user: components["schemas"]["User"];
        };
        /** @description A breakdown's answer: the dimension, what `count` counts, and the rows, most first. */
        Breakdown: {
            dimension: string;
            /** @description `visitors`, `views` or `events`. */
            measure: string;
            rows: components["schemas"]["DimensionCount"][];
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
        /** @description A click as sent: page-relative position, the target's selector and when (Unix ms). */
        ClickIn: {
            /** Format: double */
            x: number;
            /** Format: double */
            y: number;
            selector?: string | null;
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
        Credentials: {
            email: string;
            password: string;
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
             * @description Rollup rows removed (`all` without cut-off) or rebuilt (otherwise).
             */
            rollupRows: number;
        };
        /** @description One row of a breakdown: a value ('' = unknown, or Direct for referrers) and its count. */
        DimensionCount: {
            value: string;
            /** Format: int64 */
            count: number;
        };
        /** @description `{"ok": true}`: the answer of calls that only say they are done. */
        Done: {
            ok: boolean;
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
        /** @description A form field: visits that clicked it, how many of those submitted a form on the page, and the rest. */
        FormField: {
            element: string;
            /** Format: int64 */
            interactions: number;
            /** Format: int64 */
            completions: number;
            /** Format: double */
            dropOffRate: number;
        };
        /** @description `GET /api/analytics/heatmap` (spec part 2 §3), plus the reference width of the coordinates. */
        Heatmap: {
            clicks: components["schemas"]["ClickCell"][];
            scrollDepth: components["schemas"]["ScrollReach"][];
            mouseMovements: components["schemas"]["Position"][];
            pageMetrics: components["schemas"]["PageMetrics"];
            formInteractions: components["schemas"]["FormField"][];
            /** Format: int64 */
            referenceWidth: number;
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
            /** Format: double */
            scrollDepth?: number | null;
        };
        LogoutRequest: {
            refreshToken?: string | null;
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
        /** @description `GET /api/websites/{id}/organizations` item (spec part 2 §3). */
        OrganizationSummary: {
            /** Format: int64 */
            id: number;
            organizationName: string;
            domain?: string | null;
            industry?: string | null;
            /** @description enterprise, large, medium, small, or another label from the data. */
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
        /** @description `GET /api/dashboard/overview`. */
        Overview: {
            metrics: components["schemas"]["OverviewMetrics"];
            previous: components["schemas"]["PreviousMetrics"];
            topPages: components["schemas"]["PageViews"][];
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
         * @description `GET /api/privacy/settings` (spec part 2 §3). Raw IPs are never stored whatever `anonymize_ips` says:
         *     the stored address is always anonymised (last octet / last 80 bits zeroed).
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
        /** @description `PUT /api/privacy/settings`: the site plus the changed fields. */
        SettingsBody: components["schemas"]["PrivacyUpdate"] & {
            websiteId?: unknown;
        };
        /** @description `GET /api/dashboard/sites` item. Periods are whole UTC days; the 7- and 30-day ones include today. */
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
        /** @description One bucket: a UTC day (`2026-11-15`) for daily ranges, an ISO hour for the 24-hour range. */
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
        UpdateWebsite: {
            name?: string | null;
            domain?: string | null;
            trackingLevel?: string | null;
            domainOnly?: boolean | null;
        };
        /** @description A registered account, without secrets. */
        User: {
            id: components["schemas"]["i64"];
            email: string;
            /** Format: date-time */
            createdAt: string;
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
        };
        /** @description A website as the API shows it: the stored fields plus its script URL. */
        WebsiteResponse: components["schemas"]["Website"] & {
            scriptUrl: string;
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
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Visitors and page views per hour or day */
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
    exportRecent: {
        parameters: {
            query?: {
                website_id?: number;
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
    consentLogs: {
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
            /** @description The signed-in account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
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
    listWebsites: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's websites */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebsiteResponse"][];
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
    breakdown: {
        parameters: {
            query?: {
                range?: string;
                limit?: string;
            };
            header?: never;
            path: {
                /** @description Website id */
                id: number;
                /** @description A rollup dimension: page, referrer, country, browser, os, device, ... */
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
    eventsSummary: {
        parameters: {
            query?: {
                timeRange?: string;
                time_range?: string;
                range?: string;
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
    referrers: {
        parameters: {
            query?: {
                range?: string;
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
    listReplays: {
        parameters: {
            query?: {
                limit?: string;
                timeRange?: string;
                time_range?: string;
                range?: string;
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
    trafficSources: {
        parameters: {
            query?: {
                range?: string;
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
}
