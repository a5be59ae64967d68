/// A crowded infrastructure cell: `n` stations on a circle of `radius` m around the AP, each
/// downloading from a wired server with TCP SACK (16-packet window), every `upload_every`-th one
/// also uploading 100 kb/s of UDP (many collisions, frames addressed to the radios, their own
/// transmissions), for `duration` with a 1 s warm-up; `wireless` is the body of the
/// `[wireless]` table after `mode` and `ap`. Shared by `tests/wifi_lazy.rs` and the shared
/// medium's unit tests (`src/wifi/mac/medium_walk.rs`, through `include!`).
pub fn crowded_cell(n: usize, radius: f64, upload_every: usize, duration: &str, wireless: &str) -> String {
    let mut s = format!(
        "[simulation]\nduration = \"{duration}\"\nwarmup = \"1s\"\n[[nodes]]\nname = \"server\"\n\
         [[nodes]]\nname = \"ap\"\nposition = [0, 0]\n\
         [[links]]\na = \"server\"\nb = \"ap\"\nrate = \"100Mbps\"\ndelay = \"5ms\"\n",
    );
    for i in 0..n {
        let a = i as f64 * 2.0 * std::f64::consts::PI / n as f64;
        s += &format!("[[nodes]]\nname = \"s{i}\"\nposition = [{}, {}]\n", radius * a.cos(), radius * a.sin());
    }
    s += &format!("[wireless]\nmode = \"infrastructure\"\nap = \"ap\"\n{wireless}\n");
    for i in 0..n {
        s += &format!(
            "[[flows]]\nsrc = \"server\"\ndst = \"s{i}\"\nstart = \"{}ms\"\n\
             transport = {{ type = \"tcp\", variant = \"sack\", window = \"16pkt\" }}\napp = {{ type = \"bulk\" }}\n",
            1000 + 3 * i
        );
        if i % upload_every == 0 {
            s += &format!(
                "[[flows]]\nsrc = \"s{i}\"\ndst = \"server\"\nstart = \"{}ms\"\napp = {{ type = \"cbr\", rate = \"100kbps\", payload = \"500B\" }}\n",
                1200 + 5 * i
            );
        }
    }
    s
}
