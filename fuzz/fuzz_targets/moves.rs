//! Cell and move strings: `Move`'s parser, the terminal game's command
//! line, and the Gomocup protocol's command and `BOARD` line parsers.
//! None may panic; a parsed move's `Display` and `x,y` forms parse back.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk::brain::protocol;
use mnk_core::game::Move;
use mnk::play::Command;

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choice_and_text(data) else {
        return;
    };
    if let Ok(m) = text.parse::<Move>() {
        assert_eq!(m.to_xy().parse::<Move>().expect("x,y parses"), m);
        assert_eq!(m.to_string().parse::<Move>().expect("Display parses"), m);
    }
    let rules = common::rules_from(choice);
    if let Err(e) = Command::parse(&text, rules) {
        let _ = e.message(rules);
    }
    let _ = protocol::parse(&text);
    let _ = protocol::parse_board_line(&text);
    let _ = protocol::info_number(&text);
});
