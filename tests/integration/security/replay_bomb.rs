//! (filled by the fix of this finding)
