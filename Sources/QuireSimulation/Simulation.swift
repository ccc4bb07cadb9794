/// The deterministic sync simulation (issue 6 part 1).
public enum Simulation {}
