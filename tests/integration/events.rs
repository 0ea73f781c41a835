//! Event definitions (/api/websites/{id}/event-definitions), their delivery to the scripts, and the events
//! summary from the rollups.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::{assert_not_found, count, owner_with_site};
use crate::util::TestServer;

#[tokio::test]
async fn definitions_are_created_listed_and_sent_to_the_scripts() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "defs@example.com", "enhanced").await;
    let path = format!("/api/websites/{site}/event-definitions");
    let created = server
        .post(
            &path,
            &token,
            json!({"name": "buy_click", "displayName": "Buy button", "description": "Clicks on buy",
                   "eventType": "click", "selector": "main button.buy[data-plan=\"pro\"]",
                   "isConversion": true, "conversionValue": "49.99"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    assert_eq!(created.json["name"], "buy_click");
    assert_eq!(created.json["conversionValue"], "49.99");
    assert_eq!(created.json["isActive"], true);
    assert!(created.json["createdAt"].as_str().unwrap().ends_with('Z'));
    let inactive = server
        .post(
            &path,
            &token,
            json!({"name": "newsletter", "displayName": "Newsletter", "eventType": "custom", "isActive": false,
                   "isConversion": false, "conversionValue": ""}),
        )
        .await;
    assert_eq!(inactive.status, StatusCode::CREATED, "{}", inactive.text);
    assert!(inactive.json["conversionValue"].is_null());

    let list = server.get(&path, &token).await;
    assert_eq!(list.status, StatusCode::OK);
    let list = list.json.as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["name"], "newsletter", "newest first");
    for field in [
        "id",
        "name",
        "displayName",
        "description",
        "eventType",
        "selector",
        "isConversion",
        "conversionValue",
        "isActive",
        "createdAt",
    ] {
        assert!(list[1].get(field).is_some(), "{field}");
    }

    let config: Value = server
        .client
        .get(server.url(&format!("/api/track/config?tracking_key={key}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        config["definitions"],
        json!([{"id": created.json["id"], "name": "buy_click", "eventType": "click",
                "selector": "main button.buy[data-plan=\"pro\"]", "isConversion": true, "conversionValue": "49.99"}]),
        "active definitions only"
    );
    assert_eq!(config["heatmaps"], true);
}

#[tokio::test]
async fn bad_definitions_are_400_and_store_nothing() {
    let server = TestServer::start().await;
    let (token, site, _) = owner_with_site(&server, "baddefs@example.com", "enhanced").await;
    let path = format!("/api/websites/{site}/event-definitions");
    let ok = json!({"name": "a", "displayName": "A", "eventType": "click", "selector": "#a"});
    let with = |field: &str, value: Value| {
        let mut body = ok.clone();
        body[field] = value;
        body
    };
    let cases = [
        with("name", json!("")),
        with("displayName", json!("  ")),
        with("eventType", json!("hover")),
        with("selector", json!("")),
        with("selector", json!("div { color: red }")),
        with("selector", json!("a[href")),
        with("selector", json!("a".repeat(501))),
        with("name", json!("n".repeat(101))),
        json!({"name": "a", "displayName": "A", "eventType": "custom", "isConversion": true, "conversionValue": "ten"}),
        json!({"name": "a", "displayName": "A", "eventType": "submit"}),
        json!("nope"),
    ];
    for body in cases {
        let answer = server.post(&path, &token, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}: {}", answer.text);
        answer.error_message();
    }
    assert_eq!(count(&server, "SELECT COUNT(*) FROM event_definitions WHERE website_id = ?1", site), 0);
    assert_eq!(server.post(&path, &token, ok.clone()).await.status, StatusCode::CREATED);
    let duplicate = server.post(&path, &token, ok).await;
    assert_eq!(duplicate.status, StatusCode::CONFLICT);
    duplicate.error_message();
}

#[tokio::test]
async fn events_summary_counts_events_and_conversions() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "summary@example.com", "light").await;
    let event = |name: &str, kind: &str| {
        json!({"tracking_key": key, "session_id": "summary-visit", "url": "https://shop.example.com/",
               "event": kind, "event_name": name, "event_properties": {"value": 10, "currency": "EUR"}})
    };
    for (name, kind) in [("signup", "custom"), ("signup", "custom"), ("video", "custom"), ("purchase", "conversion")] {
        assert_eq!(server.track(event(name, kind)).await.status, StatusCode::ACCEPTED);
    }
    let summary = server.get(&format!("/api/websites/{site}/events/summary?timeRange=24h"), &token).await;
    assert_eq!(summary.status, StatusCode::OK, "{}", summary.text);
    assert_eq!(
        summary.json,
        json!({"totalEvents": 4, "uniqueEvents": 3, "conversionEvents": 1,
               "topEvents": [{"name": "signup", "count": 2}, {"name": "purchase", "count": 1}, {"name": "video", "count": 1}],
               "definitionTriggers": []})
    );
    let week = server.get(&format!("/api/websites/{site}/events/summary"), &token).await;
    assert_eq!(week.json["totalEvents"], 4, "7d by default");
    let bad = server.get(&format!("/api/websites/{site}/events/summary?timeRange=1y"), &token).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn event_calls_are_owner_only() {
    let server = TestServer::start().await;
    let (_, site, _) = owner_with_site(&server, "evowner@example.com", "enhanced").await;
    let (other, _) = server.register("evintruder@example.com").await;
    for path in [
        format!("/api/websites/{site}/event-definitions"),
        format!("/api/websites/{site}/events/summary"),
        "/api/websites/555555/event-definitions".to_string(),
    ] {
        assert_not_found(&server.get(&path, &other).await, &path);
    }
    let create = server
        .post(
            &format!("/api/websites/{site}/event-definitions"),
            &other,
            json!({"name": "x", "displayName": "X", "eventType": "custom"}),
        )
        .await;
    assert_not_found(&create, "create on another user's site");
    assert_eq!(count(&server, "SELECT COUNT(*) FROM event_definitions WHERE website_id = ?1", site), 0);
}

/// The script config's definitions (what the tracking scripts act on).
async fn script_definitions(server: &TestServer, key: &str) -> Value {
    let config: Value = server
        .client
        .get(server.url(&format!("/api/track/config?tracking_key={key}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    config["definitions"].clone()
}

#[tokio::test]
async fn definitions_are_edited_toggled_and_deleted() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "editdefs@example.com", "enhanced").await;
    let path = format!("/api/websites/{site}/event-definitions");
    let buy = server
        .post(
            &path,
            &token,
            json!({"name": "buy", "displayName": "Buy", "eventType": "click", "selector": "#buy",
            "isConversion": true, "conversionValue": "10"}),
        )
        .await;
    assert_eq!(buy.status, StatusCode::CREATED, "{}", buy.text);
    let other =
        server.post(&path, &token, json!({"name": "other", "displayName": "Other", "eventType": "custom"})).await;
    assert_eq!(other.status, StatusCode::CREATED);
    let id = buy.json["id"].as_i64().unwrap();
    let one = format!("{path}/{id}");

    let edited = server
        .put(&one, &token, json!({"displayName": "Buy now", "selector": "button.buy", "conversionValue": 25}))
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    assert_eq!(edited.json["displayName"], "Buy now");
    assert_eq!(edited.json["selector"], "button.buy");
    assert_eq!(edited.json["conversionValue"], "25");
    assert_eq!(edited.json["name"], "buy", "absent fields keep their value");
    assert_eq!(edited.json["createdAt"], buy.json["createdAt"]);
    let sent = script_definitions(&server, &key).await;
    let sent_buy = sent.as_array().unwrap().iter().find(|d| d["name"] == "buy").cloned();
    assert_eq!(sent_buy.unwrap()["selector"], "button.buy", "the scripts get the new selector");

    let off = server.put(&one, &token, json!({"isActive": false})).await;
    assert_eq!((off.status, &off.json["isActive"]), (StatusCode::OK, &json!(false)));
    let names = |defs: Value| defs.as_array().unwrap().iter().map(|d| d["name"].clone()).collect::<Vec<_>>();
    assert_eq!(names(script_definitions(&server, &key).await), vec![json!("other")], "inactive ones are not sent");
    let on = server.put(&one, &token, json!({"isActive": true})).await;
    assert_eq!(on.json["isActive"], true);
    assert_eq!(script_definitions(&server, &key).await.as_array().unwrap().len(), 2);

    for bad in [
        json!({"selector": "div { x }"}),
        json!({"name": ""}),
        json!({"eventType": "hover"}),
        json!({"conversionValue": "ten"}),
        json!({"selector": ""}),
        json!([1]),
    ] {
        let answer = server.put(&one, &token, bad.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
    let renamed = server.put(&one, &token, json!({"name": "other"})).await;
    assert_eq!(renamed.status, StatusCode::CONFLICT, "{}", renamed.text);
    renamed.error_message();
    let stored = server.get(&path, &token).await;
    let stored = stored.json.as_array().unwrap().iter().find(|d| d["id"] == id).unwrap().clone();
    assert_eq!(stored["displayName"], "Buy now", "failed updates change nothing");
    assert_eq!(stored["name"], "buy");

    assert_eq!(server.delete(&one, &token).await.status, StatusCode::NO_CONTENT);
    assert_eq!(server.get(&path, &token).await.json.as_array().unwrap().len(), 1);
    let again = server.delete(&one, &token).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    again.error_message();
    assert_not_found(&server.put(&one, &token, json!({"isActive": false})).await, "update of a deleted definition");
}

#[tokio::test]
async fn definition_changes_are_owner_only() {
    let server = TestServer::start().await;
    let (token, site, _) = owner_with_site(&server, "defowner@example.com", "enhanced").await;
    let def = server
        .post(
            &format!("/api/websites/{site}/event-definitions"),
            &token,
            json!({"name": "keep", "displayName": "Keep", "eventType": "custom"}),
        )
        .await;
    let id = def.json["id"].as_i64().unwrap();
    let (intruder, _) = server.register("defintruder@example.com").await;
    let own_site = server.create_site(&intruder, "Mine", "enhanced").await["id"].as_i64().unwrap();
    // The intruder's own site with the victim's definition id, and the victim's site.
    for path in [
        format!("/api/websites/{site}/event-definitions/{id}"),
        format!("/api/websites/{own_site}/event-definitions/{id}"),
    ] {
        assert_not_found(
            &server.put(&path, &intruder, json!({"displayName": "Owned", "isActive": false})).await,
            &path,
        );
        assert_not_found(&server.delete(&path, &intruder).await, &path);
    }
    let list = server.get(&format!("/api/websites/{site}/event-definitions"), &token).await;
    assert_eq!(list.json[0]["displayName"], "Keep");
    assert_eq!(list.json[0]["isActive"], true);
}

#[tokio::test]
async fn the_summary_counts_each_definitions_triggers_over_the_range() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "triggers@example.com", "enhanced").await;
    let path = format!("/api/websites/{site}/event-definitions");
    let signup =
        server.post(&path, &token, json!({"name": "signup", "displayName": "Signup", "eventType": "custom"})).await;
    let never =
        server.post(&path, &token, json!({"name": "never", "displayName": "Never", "eventType": "custom"})).await;
    for _ in 0..3 {
        let hit = json!({"tracking_key": key, "session_id": "trigger-visit", "url": "https://shop.example.com/",
            "event": "custom", "event_name": "signup"});
        assert_eq!(server.track(hit).await.status, StatusCode::ACCEPTED);
    }
    let summary = server.get(&format!("/api/websites/{site}/events/summary?timeRange=24h"), &token).await;
    let mut triggers = summary.json["definitionTriggers"].as_array().unwrap().clone();
    triggers.sort_by_key(|t| t["id"].as_i64());
    assert_eq!(
        triggers,
        vec![json!({"id": signup.json["id"], "count": 3}), json!({"id": never.json["id"], "count": 0})]
    );
}
