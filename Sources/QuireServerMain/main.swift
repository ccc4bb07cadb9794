print("quire-server")
