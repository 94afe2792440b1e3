### The ILP (formulation, GLPK backend, checker): later issues.
