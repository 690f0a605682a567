mod a;
mod b;
mod c;

fn shared() {}
