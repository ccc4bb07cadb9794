// quire-sim: runs the deterministic sync simulation over many seeds.
print("quire-sim: the simulation is not built yet")
