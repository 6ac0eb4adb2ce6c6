import ArgumentParser

@main
struct Orientctl: ParsableCommand {}
