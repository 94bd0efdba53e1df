//! Unit tests of the session state machine, and the session config that
//! the other unit tests of `play` start from.

use super::*;

/// A tic-tac-toe session with seed 3, no records, a greedy hint and plain
/// text.
pub(in crate::play) fn config(black: SeatKind, white: SeatKind) -> Config {
    Config {
        rules: Rules::TICTACTOE,
        black,
        white,
        hint: "greedy".parse().unwrap(),
        records: None,
        sgf: None,
        seed: 3,
        style: Style::PLAIN,
    }
}

fn human() -> SeatKind {
    SeatKind::Human("human".into())
}

fn texts(s: &mut Session) -> String {
    s.take_output()
        .into_iter()
        .map(|o| match o {
            Out::Screen(t) | Out::Text(t) => t,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn two_humans_play_to_a_win() {
    let mut s = Session::new(config(human(), human())).unwrap();
    let first = texts(&mut s);
    assert!(first.contains("Move 1: black (X) to play"), "{first}");
    for m in ["a1", "a2", "b2", "a3"] {
        s.input(m);
    }
    s.input("a3");
    assert!(texts(&mut s).contains("already taken by O at move 4"));
    s.input("c3");
    let out = texts(&mut s);
    assert!(
        out.contains("black (X) wins: 3 in a row at move 5."),
        "{out}"
    );
    assert!(out.contains("(X)"), "{out}");
    assert_eq!(s.turn(), Turn::PlayAgain);
    s.input("maybe");
    assert!(texts(&mut s).contains("Please answer"));
    // Taken back after the end: the game goes on.
    s.input("undo");
    assert!(texts(&mut s).contains("Took back X c3."));
    assert_eq!(s.turn(), Turn::Human(Color::Black));
    s.input("c3");
    assert_eq!(s.turn(), Turn::PlayAgain);
    s.input("n");
    assert_eq!(s.turn(), Turn::Done);
}

#[test]
fn undo_takes_back_the_ai_reply_too() {
    let ai = SeatKind::Ai("greedy".parse().unwrap());
    let mut s = Session::new(config(human(), ai)).unwrap();
    s.input("undo");
    assert!(texts(&mut s).contains("no move of yours"));
    s.input("b2");
    assert_eq!(s.turn(), Turn::Ai(Color::White));
    s.ai_move().unwrap();
    assert_eq!(s.board().ply(), 2);
    s.input("undo");
    assert_eq!(s.board().ply(), 0);
    assert!(texts(&mut s).contains("Took back X b2 and O "));
    assert_eq!(s.turn(), Turn::Human(Color::Black));
}

#[test]
fn ai_first_and_hint() {
    let ai = SeatKind::Ai("greedy".parse().unwrap());
    let mut s = Session::new(config(ai, human())).unwrap();
    assert_eq!(s.turn(), Turn::Ai(Color::Black));
    s.ai_move().unwrap();
    texts(&mut s);
    s.input("hint");
    let out = texts(&mut s);
    assert!(out.contains("Hint: greedy would play"), "{out}");
    assert!(out.contains('*'), "{out}");
    assert_eq!(s.board().ply(), 1);
}

#[test]
fn save_at_the_play_again_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::new(config(human(), human())).unwrap();
    for m in ["a1", "a2", "b1", "b2", "c1"] {
        s.input(m);
    }
    let out = texts(&mut s);
    assert!(out.contains("not recorded (no records file)"), "{out}");
    let path = dir.path().join("late.sgf");
    s.input(&format!("save {}", path.display()));
    let out = texts(&mut s);
    assert!(out.contains("Saved the game, 5 moves, to "), "{out}");
    assert!(!out.contains("updated in place"), "{out}");
    assert_eq!(s.turn(), Turn::PlayAgain);
    let games = crate::records::read_records(&path, Rules::GOMOKU).unwrap();
    assert_eq!(games[0].result, Some(Outcome::Win(Color::Black)));
}

#[test]
fn interrupted_while_the_ai_thinks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.csv");
    let ai = SeatKind::Ai("greedy".parse().unwrap());
    let mut s = Session::new(Config {
        records: Some(path.clone()),
        ..config(human(), ai)
    })
    .unwrap();
    s.input("b2");
    let mut turn = s.take_ai_turn().expect("greedy is to move");
    assert!(s.take_ai_turn().is_none(), "the player is away");
    texts(&mut s);
    s.interrupt();
    assert_eq!(
        texts(&mut s),
        format!(
            "Interrupted: stopping.\nSaved the game (unfinished), 1 move, to {} (game 1).",
            path.display()
        )
    );
    turn.think();
    s.finish_ai_turn(turn).unwrap();
    assert_eq!(s.board().ply(), 1, "the move came too late");
    assert_eq!(s.turn(), Turn::Done);
    assert_eq!(s.actor(Color::White), "greedy");
    let games = crate::records::read_records(&path, Rules::TICTACTOE).unwrap();
    assert_eq!((games.len(), games[0].plies()), (1, 1));
}

#[test]
fn resign_and_swap() {
    let ai = SeatKind::Ai("random".parse().unwrap());
    let mut s = Session::new(config(human(), ai)).unwrap();
    s.input("a1");
    s.ai_move().unwrap();
    s.input("resign");
    let out = texts(&mut s);
    assert!(
        out.contains("random (white, O) wins: you resign after 2 moves."),
        "{out}"
    );
    assert_eq!(s.record().result, Some(Outcome::Win(Color::White)));
    s.input("s");
    assert_eq!(s.game_number(), 2);
    assert_eq!(s.turn(), Turn::Ai(Color::Black));
    assert_eq!(s.record().white, "human");
}
