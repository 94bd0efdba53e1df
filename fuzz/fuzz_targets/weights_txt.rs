//! `Weights::from_txt` (the original `ChessboardValue.txt`): never panics;
//! exporting what it read and importing that again reaches a fixed point
//! by the second round trip.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk_core::eval::Weights;

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choice_and_text(data) else {
        return;
    };
    let rules = common::rules_from(choice);
    if let Ok(w) = Weights::from_txt(&text, "fuzz.txt", rules) {
        // Import divides a group above mnk's range by a power of ten, so
        // the first re-export may be t1 scaled down; from the second round
        // trip on, export and import are each other's inverse.
        if let Ok(t1) = w.to_txt() {
            let w1 = Weights::from_txt(&t1, "t1.txt", rules).expect("to_txt output reads back");
            let t2 = w1.to_txt().expect("a re-read export exports again");
            let w2 = Weights::from_txt(&t2, "t2.txt", rules).expect("to_txt output reads back");
            let t3 = w2.to_txt().expect("a re-read export exports again");
            assert_eq!(t2, t3);
        }
    }
});
