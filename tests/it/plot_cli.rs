//! `mnk plot`: what the plots show, and several runs overlaid.
