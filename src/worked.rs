//! The keys a filter's worked example uses, shared by the lessons that teach it and the
//! grader's case that checks it, so the two can never drift apart.

/// The 100-bit murmur3 filter's example: the 19 animals added.
pub(crate) const MURMUR3_ADDED: [&str; 19] = [
    "dog",
    "cat",
    "giraffe",
    "fly",
    "mosquito",
    "horse",
    "eagle",
    "bird",
    "bison",
    "boar",
    "butterfly",
    "ant",
    "anaconda",
    "bear",
    "chicken",
    "dolphin",
    "donkey",
    "crow",
    "crocodile",
];

/// The 100-bit murmur3 filter's example: the 20 animals checked but never added (exactly
/// sheep, shark, fish and elephant are false positives).
pub(crate) const MURMUR3_OTHERS: [&str; 20] = [
    "badger", "cow", "pig", "sheep", "bee", "wolf", "fox", "whale", "shark", "fish", "turkey",
    "duck", "dove", "deer", "elephant", "frog", "falcon", "goat", "gorilla", "hawk",
];
