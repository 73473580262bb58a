print("ribcity")
