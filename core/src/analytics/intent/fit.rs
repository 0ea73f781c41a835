//! Fitting the intent model: key pages, the held-out split, batch gradient descent and the held-out AUC, over
//! the features either engine loaded.

use std::collections::HashMap;
use std::time::Instant;

use rusqlite::Connection;

use super::{
    FEATURES, FINISHED_AFTER_MS, FITTED_SCORE_ODDS, HISTORY_MS, HOLDOUT_EVERY, ITERATIONS, IntentModel,
    KEY_PAGE_MIN_CONVERSIONS, KEY_PAGE_MIN_LIFT, KEY_PAGES_MAX, KeyPage, L2, LEARNING_RATE, MIN_CONVERSIONS,
    MIN_SESSIONS, ModelInfo, N, SessionFeatures, TRAIN_LIMIT, Weight, load_features, plural, round2, sigmoid,
};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

/// The pages converted visits viewed before converting markedly more often than visits overall.
pub(super) fn key_pages(sessions: &[&SessionFeatures]) -> (Vec<KeyPage>, f64) {
    let total = sessions.len() as f64;
    let converted = sessions.iter().filter(|s| s.converted).count() as f64;
    let base = if total > 0.0 { converted / total } else { 0.0 };
    let mut by_page: HashMap<&str, (i64, i64)> = HashMap::new();
    for s in sessions {
        for page in &s.pages {
            let entry = by_page.entry(page.as_str()).or_default();
            entry.0 += 1;
            entry.1 += s.converted as i64;
        }
    }
    let mut pages: Vec<KeyPage> = by_page
        .into_iter()
        .filter(|(_, (_, conv))| *conv as usize >= KEY_PAGE_MIN_CONVERSIONS)
        .filter_map(|(page, (n, conv))| {
            let rate = conv as f64 / n as f64;
            let lift = if base > 0.0 { rate / base } else { 0.0 };
            (lift >= KEY_PAGE_MIN_LIFT).then(|| KeyPage {
                page: page.to_string(),
                sessions: n,
                conversions: conv,
                conversion_rate: (rate * 1000.0).round() / 10.0,
                lift: (lift * 10.0).round() / 10.0,
            })
        })
        .collect();
    pages.sort_by(|a, b| b.lift.total_cmp(&a.lift).then(b.sessions.cmp(&a.sessions)).then(a.page.cmp(&b.page)));
    pages.truncate(KEY_PAGES_MAX);
    (pages, (base * 1000.0).round() / 10.0)
}

/// Area under the ROC curve of `scores` against `labels` (Mann-Whitney, ties counted half); None without
/// both classes.
pub fn auc(scored: &[(f64, bool)]) -> Option<f64> {
    let positives = scored.iter().filter(|s| s.1).count();
    let negatives = scored.len() - positives;
    if positives == 0 || negatives == 0 {
        return None;
    }
    let mut sorted: Vec<(f64, bool)> = scored.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut rank_sum = 0.0;
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1].0 == sorted[i].0 {
            j += 1;
        }
        // Ranks i+1..=j+1 share their average.
        let average = (i + j + 2) as f64 / 2.0;
        rank_sum += average * sorted[i..=j].iter().filter(|s| s.1).count() as f64;
        i = j + 1;
    }
    let p = positives as f64;
    Some((rank_sum - p * (p + 1.0) / 2.0) / (p * negatives as f64))
}

/// Fits the model of a site on its finished visits of the last [`HISTORY_MS`] in SQLite; priors when there are
/// too few.
pub fn fit(conn: &Connection, site: WebsiteId, now: Millis) -> Result<IntentModel> {
    let started = Instant::now();
    let history = load_features(conn, site, now - HISTORY_MS, now, TRAIN_LIMIT, Some(now - FINISHED_AFTER_MS))?;
    Ok(fit_features(&history, now, started))
}

/// Whether a visit is held out of the fit: an FNV-1a hash of its start counted from `earliest`, the first start
/// among the visits fitted on. Every engine stores starts alike (visit ids and retired visits' keys differ
/// between SQLite and the cluster), and counting from the earliest keeps the split off the wall clock: visits
/// that stand in the same relation are split the same way whenever they happened.
fn is_held_out(f: &SessionFeatures, earliest: Millis) -> bool {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in (f.first_seen - earliest).to_le_bytes() {
        hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
    }
    hash.is_multiple_of(HOLDOUT_EVERY)
}

/// Fits the model on `history`, a site's finished visits of the last [`HISTORY_MS`] (at most [`TRAIN_LIMIT`],
/// most recent first) whichever engine loaded them; priors when there are too few. `started`: when the fit
/// began, loading included, for the model's `fit_ms`.
pub fn fit_features(history: &[SessionFeatures], now: Millis, started: Instant) -> IntentModel {
    let earliest = history.iter().map(|s| s.first_seen).min().unwrap_or(0);
    let (held_out, train): (Vec<&SessionFeatures>, Vec<&SessionFeatures>) =
        history.iter().partition(|s| is_held_out(s, earliest));
    let conversions = train.iter().filter(|s| s.converted).count();
    let others = train.len() - conversions;
    let (key_pages, base_rate) = key_pages(&train);
    if history.len() < MIN_SESSIONS || conversions < MIN_CONVERSIONS || others < MIN_CONVERSIONS {
        let all_conversions = history.iter().filter(|s| s.converted).count();
        let note = format!(
            "Prior weights: {} and {} finished visits in the last 30 days; fitting needs at least {MIN_CONVERSIONS} \
             conversions and {MIN_SESSIONS} visits.",
            plural(all_conversions as i64, "conversion", "conversions"),
            history.len()
        );
        let mut model = IntentModel::prior(note, key_pages, base_rate, now);
        model.info.training_sessions = history.len() as i64;
        model.info.training_conversions = all_conversions as i64;
        return model;
    }
    // Standardise on the training visits, then batch gradient descent on the mean log loss plus L2.
    let mut model = IntentModel::prior(String::new(), key_pages, base_rate, now);
    let xs: Vec<[f64; N]> = train.iter().map(|s| model.vector(s)).collect();
    let ys: Vec<f64> = train.iter().map(|s| if s.converted { 1.0 } else { 0.0 }).collect();
    let n = xs.len() as f64;
    let mut mean = [0.0; N];
    let mut scale = [0.0; N];
    for x in &xs {
        for i in 0..N {
            mean[i] += x[i] / n;
        }
    }
    for x in &xs {
        for i in 0..N {
            scale[i] += (x[i] - mean[i]).powi(2) / n;
        }
    }
    for s in scale.iter_mut() {
        *s = if *s > 1e-12 { s.sqrt() } else { 1.0 };
    }
    let zs: Vec<[f64; N]> = xs
        .iter()
        .map(|x| {
            let mut z = [0.0; N];
            for i in 0..N {
                z[i] = (x[i] - mean[i]) / scale[i];
            }
            z
        })
        .collect();
    let p0 = (conversions as f64 / n).clamp(1e-6, 1.0 - 1e-6);
    let mut bias = (p0 / (1.0 - p0)).ln();
    let mut weights = [0.0; N];
    for _ in 0..ITERATIONS {
        let mut grad = [0.0; N];
        let mut grad_bias = 0.0;
        for (z, y) in zs.iter().zip(&ys) {
            let mut logit = bias;
            for i in 0..N {
                logit += weights[i] * z[i];
            }
            let error = sigmoid(logit) - y;
            grad_bias += error / n;
            for i in 0..N {
                grad[i] += error * z[i] / n;
            }
        }
        bias -= LEARNING_RATE * grad_bias;
        for i in 0..N {
            weights[i] -= LEARNING_RATE * (grad[i] + L2 * weights[i]);
        }
    }
    model.mean = mean;
    model.scale = scale;
    model.weights = weights;
    model.bias = bias;
    model.score_offset = -(FITTED_SCORE_ODDS * p0 / (1.0 - p0)).ln();
    let scored: Vec<(f64, bool)> =
        held_out.iter().map(|s| (model.probability(&model.vector(s)), s.converted)).collect();
    let held_out_conversions = held_out.iter().filter(|s| s.converted).count();
    model.info = ModelInfo {
        source: "fitted",
        note: format!(
            "Fitted on {} finished visits of the last 30 days ({}); one visit in {HOLDOUT_EVERY} held out to measure it. \
             Scores set a visit's odds of converting against the average visit's: 33 is average, 60 three times \
             its odds, 80 eight times.",
            train.len(),
            plural(conversions as i64, "conversion", "conversions")
        ),
        training_sessions: train.len() as i64,
        training_conversions: conversions as i64,
        held_out_sessions: held_out.len() as i64,
        held_out_conversions: held_out_conversions as i64,
        auc: auc(&scored).map(|a| (a * 1000.0).round() / 1000.0),
        fitted_at: now,
        fit_ms: 0.0,
        weights: FEATURES
            .iter()
            .zip(weights)
            .map(|(&feature, weight)| Weight { feature, weight: round2(weight) })
            .collect(),
        key_pages: model.info.key_pages.clone(),
        base_conversion_rate: base_rate,
    };
    model.info.fit_ms = (started.elapsed().as_secs_f64() * 10_000.0).round() / 10.0;
    model
}
