//! A crate whose `app` folder has a cycle (`a` ↔ `b`) for the layer test to find.
mod app;
