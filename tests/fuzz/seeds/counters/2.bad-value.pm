Port=6 Lid=0x0003 GUID=0x0002c90301000002 Device=1 Port Name=leaf-p01-02/P6
symbol_error_counter=zz
