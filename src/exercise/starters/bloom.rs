// {TITLE}, as a program.
// It reads ADD, CHECK and BITS lines on stdin and writes its answers on stdout.
//
// {MADE_BY}
// Reading the commands and writing the answers are done. Fill in the two parts
// marked TODO, then build and grade it:
//   rustc -O {STEM}.rs
//   {GRADE}
use std::io::{self, BufRead, BufWriter, Write};

const M: usize = {M}; // bits in the filter
const K: usize = {K}; // positions per key

// ---- TODO 1 of 2: the bit array ----
// Keep M bits, all 0 at the start: set(p) sets bit p to 1, and get(p) says
// whether bit p is 1. A Vec<bool> of M bits will do.
struct Bits {}

impl Bits {
    fn new() -> Bits {
        Bits {}
    }

    fn set(&mut self, p: usize) {
        let _ = p;
    }

    fn get(&self, p: usize) -> bool {
        let _ = p;
        false
    }
}
// ---- end of TODO 1 ----

// ---- TODO 2 of 2: the key's positions ----
// key is bytes. Return its K positions, each from 0 to M-1, in this order:
{RULES}
fn positions(key: &[u8]) -> [usize; K] {
    let _ = key;
    [0; K]
}
// ---- end of TODO 2 ----

fn main() -> io::Result<()> {
    let mut input = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut bits = Bits::new();
    // Bytes, not text: keys are hashed as the bytes they are.
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        // The key is everything after the first space, spaces and all.
        let (command, key) = match line.iter().position(|&b| b == b' ') {
            Some(i) => (&line[..i], &line[i + 1..]),
            None => (&line[..], &line[line.len()..]),
        };
        match command {
            b"ADD" => {
                for p in positions(key) {
                    bits.set(p);
                }
            }
            b"CHECK" => {
                // MAYBE only when every one of the key's bits is 1.
                let all = positions(key).iter().all(|&p| bits.get(p));
                writeln!(out, "{}", if all { "MAYBE" } else { "NO" })?;
            }
            b"BITS" => {
                // Bit 0 first.
                let shown: String = (0..M).map(|p| if bits.get(p) { '1' } else { '0' }).collect();
                writeln!(out, "{shown}")?;
            }
            _ => eprintln!("unknown command: {}", String::from_utf8_lossy(command)),
        }
    }
    out.flush()
}
