pub fn ops() -> Vec<crate::bench::BenchOp> {
    vec![]
}
