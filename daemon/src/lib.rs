//! tracker-daemon: turns HTTP into calls on the core `Tracker` and back.
